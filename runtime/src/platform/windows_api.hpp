// <windows.h> as the runtime includes it: without its min and max macros. Windows only; the
// platform/ files are the only ones that include it.
#pragma once

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#endif
