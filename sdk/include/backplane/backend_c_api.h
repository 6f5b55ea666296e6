/* Backend API 2.1: the plugin boundary, in C.
 *
 * Everything that passes between the runtime and a backend plugin is declared here, in C99, so
 * that a plugin built by any compiler and standard library (GCC or Clang, libstdc++ or libc++,
 * C or C++) loads into any runtime of the same platform. Backend authors who write C++ do not
 * use this header directly: backplane/backend/c_adapter.hpp (header-only, compiled into the
 * plugin) turns their IBackend into these tables, and the runtime wraps the tables on its side.
 *
 * Rules that hold for every declaration below (docs/backend-authors.md has the long form):
 *
 * Objects. Every object is a pointer to a struct whose first member points to its function
 *   table (`const BpXxxTable* table`); the creator allocates the rest behind it as it likes.
 *   An object is destroyed only by its own table's `destroy`, called by whoever received
 *   ownership ("the caller owns the result"), so memory is always freed by the side that
 *   allocated it.
 *
 * Growth. Every table and every struct starts with `uint32_t struct_size` (its sizeof when it
 *   was filled) and only ever grows at the end; fields are never reordered, retyped or removed
 *   within a major version. Whoever reads a struct filled by the other side reads a field only
 *   when BP_HAS_FIELD says the struct is large enough, and calls a function only when it is
 *   also non-null. A plugin's minor version is at most the runtime's (spec 001), so structs the
 *   runtime fills are always large enough for the plugin; the runtime checks what a plugin
 *   fills (an older plugin's structs are shorter). Structs that travel as array elements
 *   (BpString, BpTensorInfo, BpProducer, BpLayerIndices, BpSubstitution, BpOption, BpOptionSpec,
 *   BpDeviceInfo, BpNamedFlag) never grow, since an array is stepped through by sizeof: a later
 *   minor adds a parallel array at the end of the struct that holds them instead.
 *
 * Optional functions. A function whose comment starts with "Optional" may be null, and the
 *   runtime then does what that comment says; every other function is required, and a plugin
 *   object whose table lacks one is refused with a message naming the backend and the function.
 *
 * Errors. Nothing is thrown across this boundary. A function that can fail returns a
 *   BpStatus*: null means success; otherwise the callee created a status (code + message) and
 *   the caller owns it and destroys it with status->destroy(status). Where a function answers
 *   "no" with a reason (layer support, availability, a context refusing a load), the "no" is a
 *   status with code BP_STATUS_UNSUPPORTED and the reason as its message.
 *
 * Strings and arrays. A string is a BpString (pointer + length, UTF-8, not necessarily
 *   NUL-terminated); an array is a pointer + count. Each function states how long what it
 *   receives or returns stays valid. Unless stated otherwise, what a function receives is valid
 *   during the call only and the callee copies what it keeps; what a result object holds is
 *   valid until that object is destroyed.
 *
 * Threads. Stated per table. Objects may be called from any thread, never concurrently on one
 *   object unless the table says so.
 *
 * Values of enumerations are stable: new values are appended, never renumbered. They travel as
 * uint32_t, never as C enum types (whose size is the compiler's choice).
 */
#ifndef BACKPLANE_BACKEND_C_API_H
#define BACKPLANE_BACKEND_C_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The Backend API version this header declares. History: 1.x were C++ interfaces (refused since
 * 2.0); 2.0 is this C boundary; 2.1 added BpWorkloadTable.get_info (what runs a workload, for
 * profiles); 2.2 to 2.6 add op set v2's values and layer types; 2.6 also adds
 * BpBackendTable.get_devices (docs/backend-authors.md). */
#define BP_BACKEND_API_MAJOR 2u
#define BP_BACKEND_API_MINOR 6u

/* True when `s` (a pointer to a struct of type `type` filled by the other side) is large enough
 * to hold `field`. */
#define BP_HAS_FIELD(s, type, field) \
  ((s) != NULL && (size_t)(s)->struct_size >= offsetof(type, field) + sizeof(((type*)0)->field))
/* True when table `t` has function `fn` and it is not null. */
#define BP_HAS_FUNCTION(t, type, fn) (BP_HAS_FIELD(t, type, fn) && (t)->fn != NULL)

/* ---- Plain values ------------------------------------------------------------------------ */

typedef struct BpString {
  const char* data; /* may be null when size is 0 */
  size_t size;
} BpString;

/* Element types (backplane::DataType). */
#define BP_DATA_TYPE_F32 0u
#define BP_DATA_TYPE_F16 1u
#define BP_DATA_TYPE_BF16 2u
#define BP_DATA_TYPE_I32 3u
#define BP_DATA_TYPE_I64 4u
#define BP_DATA_TYPE_BOOL 5u
/* Added in Backend API 2.3 (op set v2): */
#define BP_DATA_TYPE_I8 6u
#define BP_DATA_TYPE_U8 7u
#define BP_DATA_TYPE_I16 8u
#define BP_DATA_TYPE_U16 9u
#define BP_DATA_TYPE_U32 10u
#define BP_DATA_TYPE_U64 11u
#define BP_DATA_TYPE_F64 12u

/* A tensor's element type and dimensions (outermost first; rank 0 is a scalar). */
typedef struct BpTensorInfo {
  uint32_t struct_size;
  uint32_t data_type; /* BP_DATA_TYPE_* */
  const int64_t* dims;
  size_t rank;
} BpTensorInfo;

/* ---- Status ------------------------------------------------------------------------------ */

/* Codes (backplane::ErrorCode, with 0 unused: success is a null status). */
#define BP_STATUS_INVALID_ARGUMENT 1u
#define BP_STATUS_NOT_FOUND 2u
#define BP_STATUS_UNSUPPORTED 3u /* also "no" with a reason, see above */
#define BP_STATUS_BACKEND_FAILURE 4u
#define BP_STATUS_INTERNAL 5u
#define BP_STATUS_OUT_OF_MEMORY 6u

/* A failure, created by the callee, owned and destroyed by the caller. `message` is valid until
 * destroy; it says what failed and where ("tensor 'x' has rank 5; at most 4 supported"). */
typedef struct BpStatus {
  uint32_t struct_size;
  uint32_t code; /* BP_STATUS_* */
  BpString message;
  void (*destroy)(struct BpStatus* self);
} BpStatus;

/* ---- Layers ------------------------------------------------------------------------------ */

/* Layer types of op set v1 (backplane::backend::LayerType). */
#define BP_LAYER_INPUT 0u
#define BP_LAYER_OUTPUT 1u
#define BP_LAYER_CONSTANT 2u
#define BP_LAYER_CONVOLUTION_2D 3u
#define BP_LAYER_FULLY_CONNECTED 4u
#define BP_LAYER_MAT_MUL 5u
#define BP_LAYER_POOLING_2D 6u
#define BP_LAYER_ACTIVATION 7u
#define BP_LAYER_ELEMENTWISE_BINARY 8u
#define BP_LAYER_ELEMENTWISE_UNARY 9u
#define BP_LAYER_SOFTMAX 10u
#define BP_LAYER_BATCH_NORMALIZATION 11u
#define BP_LAYER_LAYER_NORMALIZATION 12u
#define BP_LAYER_REDUCE 13u
#define BP_LAYER_RESHAPE 14u
#define BP_LAYER_FLATTEN 15u
#define BP_LAYER_TRANSPOSE 16u
#define BP_LAYER_CONCAT 17u
#define BP_LAYER_SPLIT 18u
#define BP_LAYER_SLICE 19u
#define BP_LAYER_GATHER 20u
#define BP_LAYER_PAD 21u
#define BP_LAYER_CAST 22u
#define BP_LAYER_PRE_COMPILED 23u
/* Op set v2 adds layer types after PRE_COMPILED, so that no earlier value changes (a plugin built
 * against an older header refuses them through its range check: the layer goes to another
 * backend). */
#define BP_LAYER_WHERE 24u /* select x where cond, else y: inputs cond (bool), x, y; no attributes */
/* Added in Backend API 2.3: */
#define BP_LAYER_GATHER_ELEMENTS 25u /* inputs data, indices (i32/i64), same rank: BpGatherElementsAttributes */
#define BP_LAYER_ARG_MIN_MAX 26u     /* index (i64) of the largest / smallest value along an axis */
#define BP_LAYER_TRILU 27u           /* keeps the upper or lower triangle of the last two axes */
#define BP_LAYER_RESIZE 28u          /* resampling to a given shape: BpResizeAttributes */
#define BP_LAYER_CONVOLUTION_TRANSPOSE 29u /* 1-D to 3-D transposed convolution: BpConvolutionTransposeAttributes */
#define BP_LAYER_TOP_K 30u            /* the k largest or smallest along an axis: outputs values, i64 indices */
#define BP_LAYER_CUM_SUM 31u          /* running sums along an axis */
#define BP_LAYER_SCATTER_ELEMENTS 32u /* inputs data, indices, updates: data with updates written at indices */
#define BP_LAYER_GATHER_ND 33u        /* inputs data, indices (i64): slices at index tuples */
/* Added in Backend API 2.4: convolution and pooling over 1 to 3 spatial axes. Networks keep
 * CONVOLUTION_2D and POOLING_2D for 2 spatial axes (the ONNX importer uses the N-D types for 3). */
#define BP_LAYER_CONVOLUTION_ND 34u /* ONNX Conv over 1 to 3 spatial axes: BpConvolutionNdAttributes */
#define BP_LAYER_POOLING_ND 35u     /* max / average pooling over 1 to 3 spatial axes: BpPoolingNdAttributes */
#define BP_LAYER_GRID_SAMPLE 36u    /* x [N, C, H, W] sampled at grid [N, Ho, Wo, 2]: BpGridSampleAttributes */
/* Added in Backend API 2.5: integer compute for quantized models (ONNX MatMulInteger, ConvInteger,
 * and the integer core of QLinearMatMul / QLinearConv). Data inputs i8 or u8 (each side either), an
 * optional zero point per data input of that input's type, subtracted before the product; the
 * output is i32, accumulated exactly in 32 bits (wrapping only where ONNX allows overflow). */
#define BP_LAYER_MAT_MUL_INTEGER 37u /* numpy.matmul(a - a_zero_point, b - b_zero_point); no attributes */
#define BP_LAYER_CONVOLUTION_INTEGER 38u /* ONNX ConvInteger, 1 to 3 spatial axes: BpConvolutionIntegerAttributes */
/* Also added in Backend API 2.5: ONNX RNN, GRU and LSTM as one layer (time-major). */
#define BP_LAYER_RECURRENT 39u /* a whole RNN / GRU / LSTM node over every time step: BpRecurrentAttributes */
/* Added in Backend API 2.6: signal processing and normalization (ONNX DFT, LRN, Det). */
#define BP_LAYER_DFT 40u /* ONNX DFT along one axis, real or complex as a trailing axis of 1 or 2: BpDftAttributes */
#define BP_LAYER_LRN 41u /* ONNX LRN across channels: BpLrnAttributes */
#define BP_LAYER_DET 42u /* ONNX Det: the determinants of [..., M, M]; no attributes */

/* Added in Backend API 2.6: ops whose output extent depends on the input values (ONNX NonZero,
 * Compress, Unique, NonMaxSuppression). Each has outputs of a static upper-bound shape plus a last
 * output `count` (i64 [1]): how many entries along the bounded axis are valid (the first `count`;
 * the rest are unspecified), as OpenVINO's NonMaxSuppression-5 pads selected_indices and returns
 * valid_outputs. A consumer that needs ONNX's exact shape (onnx::Session for graph outputs) trims
 * the bounded outputs to `count`; a count of 0 is a valid, empty result. */
#define BP_LAYER_NON_ZERO 50u            /* x (numbers or bool) -> indices [rank, numel] i64 (bounded axis 1), count; no attributes */
#define BP_LAYER_COMPRESS 51u            /* input, condition (bool [L]) -> output (bounded along axis), count: BpCompressAttributes */
#define BP_LAYER_UNIQUE 52u              /* x -> y, indices, inverse_indices, counts, count: BpUniqueAttributes */
#define BP_LAYER_NON_MAX_SUPPRESSION 53u /* boxes, scores, ... -> selected_indices [B*C*N, 3] i64 (bounded axis 0), count */

/* Attributes: one struct per layer type that has parameters; BpLayer::attributes points to the
 * one its type names (null for Input, Output, MatMul, Where, MatMulInteger, Det and NonZero). Arrays inside are valid as long as the
 * BpLayer they came with. Semantics are op set v1's (backplane/descriptors.hpp). */

typedef struct BpConvolution2dAttributes {
  uint32_t struct_size;
  uint32_t strides[2];   /* H, W */
  uint32_t dilations[2]; /* H, W */
  uint32_t pads[4];      /* top, left, bottom, right */
  uint32_t groups;
} BpConvolution2dAttributes;

/* ONNX ConvTranspose over S = 1, 2 or 3 spatial axes: x [N, C, D1..DS], weights
 * [C, M/groups, k1..kS], optional bias [M]; y [N, M, O1..OS] with
 * Oi = strides[i] * (Di - 1) + output_padding[i] + (ki - 1) * dilations[i] + 1 - pads[i] - pads[S + i].
 * Added in Backend API 2.3. */
typedef struct BpConvolutionTransposeAttributes {
  uint32_t struct_size;
  const uint32_t* strides;        /* spatial_rank entries each */
  const uint32_t* dilations;
  const uint32_t* output_padding; /* added at the end of each output axis */
  size_t spatial_rank;
  const uint32_t* pads; /* pad_count = 2 * spatial_rank: the begins, then the ends (ONNX order) */
  size_t pad_count;
  uint32_t groups;
} BpConvolutionTransposeAttributes;

/* ONNX Conv over S = 1, 2 or 3 spatial axes: x [N, C, D1..DS], weights [M, C/groups, k1..kS],
 * optional bias [M]; y [N, M, O1..OS] with
 * Oi = floor((Di + pads[i] + pads[S + i] - (ki - 1) * dilations[i] - 1) / strides[i]) + 1.
 * Added in Backend API 2.4. */
typedef struct BpConvolutionNdAttributes {
  uint32_t struct_size;
  const uint32_t* strides;   /* spatial_rank entries each */
  const uint32_t* dilations;
  size_t spatial_rank;
  const uint32_t* pads; /* pad_count = 2 * spatial_rank: the begins, then the ends (ONNX order) */
  size_t pad_count;
  uint32_t groups;
} BpConvolutionNdAttributes;

/* ONNX ConvInteger over S = 1, 2 or 3 spatial axes: inputs x [N, C, D1..DS] and weights
 * [M, C/groups, k1..kS] (i8 or u8 each), optional x_zero_point (one value, x's type) and
 * w_zero_point (one value or [M], one per output channel; weights' type). y [N, M, O1..OS] of i32:
 * the sums of (x - x_zero_point) * (w - w_zero_point), the padding contributing 0 (it reads as
 * the zero point). Extents as BpConvolutionNdAttributes'; no bias (an i32 Add after it).
 * Added in Backend API 2.5. */
typedef struct BpConvolutionIntegerAttributes {
  uint32_t struct_size;
  const uint32_t* strides;   /* spatial_rank entries each */
  const uint32_t* dilations;
  size_t spatial_rank;
  const uint32_t* pads; /* pad_count = 2 * spatial_rank: the begins, then the ends (ONNX order) */
  size_t pad_count;
  uint32_t groups;
} BpConvolutionIntegerAttributes;

typedef struct BpFullyConnectedAttributes {
  uint32_t struct_size;
  uint32_t transpose_a; /* 0 or 1 */
  uint32_t transpose_b; /* 0 or 1 */
  float alpha;
  float beta;
} BpFullyConnectedAttributes;

#define BP_POOLING_MAX 0u
#define BP_POOLING_AVERAGE 1u
typedef struct BpPooling2dAttributes {
  uint32_t struct_size;
  uint32_t type; /* BP_POOLING_* */
  uint32_t kernel[2];
  uint32_t strides[2];
  uint32_t dilations[2];
  uint32_t pads[4];
  uint32_t count_include_pad; /* 0 or 1 */
  uint32_t ceil_mode;         /* 0 or 1 */
  uint32_t global;            /* 0 or 1 */
} BpPooling2dAttributes;

/* Pooling over S = 1, 2 or 3 spatial axes: x [N, C, D1..DS], y [N, C, O1..OS], Pooling2d's rules
 * per axis (dilations, ceil_mode, count_include_pad). global: one window over all spatial axes,
 * y [N, C, 1..1]; the lists are not read then (they may be empty). Added in Backend API 2.4. */
typedef struct BpPoolingNdAttributes {
  uint32_t struct_size;
  uint32_t type;           /* BP_POOLING_* */
  const uint32_t* kernel;  /* spatial_rank entries each */
  const uint32_t* strides;
  const uint32_t* dilations;
  size_t spatial_rank;
  const uint32_t* pads; /* pad_count = 2 * spatial_rank: the begins, then the ends (ONNX order) */
  size_t pad_count;
  uint32_t count_include_pad; /* 0 or 1 */
  uint32_t ceil_mode;         /* 0 or 1 */
  uint32_t global;            /* 0 or 1 */
} BpPoolingNdAttributes;

/* ONNX GridSample (opset 16) over 2 spatial axes: inputs x [N, C, H, W] and grid [N, Ho, Wo, 2]
 * (x's type: (x, y) coordinates normalized to [-1, 1], x along W); output [N, C, Ho, Wo].
 * align_corners: -1 and 1 name the centres of the corner pixels (1) or their outer edges (0).
 * Added in Backend API 2.4. */
#define BP_GRID_SAMPLE_BILINEAR 0u
#define BP_GRID_SAMPLE_NEAREST 1u /* rounds halves to even, as ONNX's reference */
#define BP_GRID_SAMPLE_BICUBIC 2u /* cubic convolution with A = -0.75 over a 4x4 neighbourhood */
#define BP_GRID_SAMPLE_ZEROS 0u      /* samples outside x read 0 */
#define BP_GRID_SAMPLE_BORDER 1u     /* ... read the nearest border value */
#define BP_GRID_SAMPLE_REFLECTION 2u /* ... reflect at the border until they are inside */
typedef struct BpGridSampleAttributes {
  uint32_t struct_size;
  uint32_t mode;         /* BP_GRID_SAMPLE_BILINEAR .. BICUBIC */
  uint32_t padding_mode; /* BP_GRID_SAMPLE_ZEROS .. REFLECTION */
  uint32_t align_corners; /* 0 or 1 */
} BpGridSampleAttributes;

/* ONNX RNN, GRU and LSTM (layout 0) as one layer. Inputs in ONNX's order: X [T, B, I], W [D, G*H, I],
 * R [D, G*H, H], then optional B [D, 2*G*H], sequence_lens [B] (i32, each in [0, T]), initial_h
 * [D, B, H], initial_c [D, B, H] and P [D, 3H] (LSTM); an optional input may be left out only when
 * every later one is too (a network gives zeros, or T lengths, for one that comes before a given
 * one). D = 2 for BP_RECURRENT_BIDIRECTIONAL, else 1; G = 1 (RNN), 3 (GRU: z, r, h), 4 (LSTM: i, o,
 * f, c); gate order, every formula, the masking by sequence_lens and the reverse direction as ONNX's
 * operators of those names. Outputs Y [T, D, B, H] and Y_h [D, B, H], and Y_c [D, B, H] for LSTM;
 * every tensor but sequence_lens has X's floating-point type. activations: the cell's functions per
 * direction (RNN: f; GRU: f, g; LSTM: f, g, h), forward's first, as BP_RECURRENT_ACTIVATION_* values,
 * each with its alpha and beta (lists of activation_count entries; a function that reads no alpha
 * or beta ignores it). clip > 0 bounds every activation's input to [-clip, clip]; 0: no clip.
 * Added in Backend API 2.5. */
#define BP_RECURRENT_RNN 0u
#define BP_RECURRENT_GRU 1u
#define BP_RECURRENT_LSTM 2u
#define BP_RECURRENT_FORWARD 0u
#define BP_RECURRENT_REVERSE 1u       /* from step T - 1 down to 0 */
#define BP_RECURRENT_BIDIRECTIONAL 2u /* both, forward as direction 0 */
#define BP_RECURRENT_ACTIVATION_RELU 0u
#define BP_RECURRENT_ACTIVATION_TANH 1u
#define BP_RECURRENT_ACTIVATION_SIGMOID 2u
#define BP_RECURRENT_ACTIVATION_AFFINE 3u           /* alpha x + beta */
#define BP_RECURRENT_ACTIVATION_LEAKY_RELU 4u       /* x < 0 ? alpha x : x */
#define BP_RECURRENT_ACTIVATION_THRESHOLDED_RELU 5u /* x > alpha ? x : 0 */
#define BP_RECURRENT_ACTIVATION_SCALED_TANH 6u      /* alpha tanh(beta x) */
#define BP_RECURRENT_ACTIVATION_HARD_SIGMOID 7u     /* max(0, min(1, alpha x + beta)) */
#define BP_RECURRENT_ACTIVATION_ELU 8u              /* x < 0 ? alpha (e^x - 1) : x */
#define BP_RECURRENT_ACTIVATION_SOFTSIGN 9u         /* x / (1 + |x|) */
#define BP_RECURRENT_ACTIVATION_SOFTPLUS 10u        /* log(1 + e^x) */
typedef struct BpRecurrentAttributes {
  uint32_t struct_size;
  uint32_t cell;      /* BP_RECURRENT_RNN .. LSTM */
  uint32_t direction; /* BP_RECURRENT_FORWARD .. BIDIRECTIONAL */
  const uint32_t* activations; /* activation_count entries: BP_RECURRENT_ACTIVATION_* */
  size_t activation_count;     /* functions per cell * D */
  const float* activation_alpha; /* activation_count entries each */
  const float* activation_beta;
  float clip;                   /* > 0: the bound; 0: none */
  uint32_t linear_before_reset; /* GRU: 0 or 1 */
  uint32_t input_forget;        /* LSTM: 0 or 1 (f = 1 - i) */
} BpRecurrentAttributes;

/* ONNX Compress: the slices of `input` along `axis` whose entry of `condition` (bool [L]) is true,
 * in order (entries past min(L, the axis' length) select nothing); with has_axis 0 the input is
 * read flattened and the output is 1-D. Output 0 has the input's type and shape but along the
 * axis (or the flattened length) min(L, length) entries, of which the first `count` (output 1,
 * i64 [1]) are valid. Added in Backend API 2.6. */
typedef struct BpCompressAttributes {
  uint32_t struct_size;
  uint32_t has_axis; /* 0: flatten */
  int32_t axis;      /* in [-rank, rank) when has_axis */
} BpCompressAttributes;

/* ONNX Unique of x (numbers) over the whole flattened tensor (has_axis 0) or over the slices along
 * `axis`. Outputs: y (x's type; x's shape with the axis' length, or [numel] flattened, as the
 * bound), indices (i64 [bound]: the first occurrence of each), inverse_indices (i64 [length]:
 * each slice's position in y; not bounded), counts (i64 [bound]), count (i64 [1]: the unique
 * slices, the valid extent of y along the axis and of indices and counts). sorted 1: ascending
 * (slices compared lexicographically, NaN after every number and equal to NaN, as numpy.unique);
 * 0: in the order of first occurrence. Added in Backend API 2.6. */
typedef struct BpUniqueAttributes {
  uint32_t struct_size;
  uint32_t sorted;   /* 0 or 1 */
  uint32_t has_axis; /* 0: flatten */
  int32_t axis;      /* in [-rank, rank) when has_axis */
} BpUniqueAttributes;

/* ONNX NonMaxSuppression: inputs boxes [B, N, 4] and scores [B, C, N] (f32), then optional
 * max_output_boxes_per_class (i64, one value; absent: 0, nothing selected), iou_threshold and
 * score_threshold (f32, one value each; absent: 0 and no threshold), read at run time. Per batch
 * and class, boxes in descending score order (ties: the lower box index first, as ONNX Runtime),
 * those with score > score_threshold, each kept when its IoU with every box kept before is at most
 * iou_threshold, at most max_output_boxes_per_class. Output selected_indices [B*C*N, 3] (i64:
 * batch, class, box) of which the first `count` (output 1, i64 [1]) rows are valid, batch-major
 * then class, each class' boxes in the order kept. center_point_box 0: a box is [y1, x1, y2, x2]
 * (any two opposite corners); 1: [x_center, y_center, width, height]. Added in Backend API 2.6. */
typedef struct BpNonMaxSuppressionAttributes {
  uint32_t struct_size;
  uint32_t center_point_box; /* 0 or 1 */
} BpNonMaxSuppressionAttributes;
/* ONNX DFT (opset 17's form) of input 0 [..., N, ..., 1 or 2] (real, or complex as real and imaginary
 * parts in a trailing axis) along `axis` (0 .. rank - 2, not the trailing one): the signal of that
 * axis cut or zero-padded to `length` points (0: its own length N), y[k] = sum_n x[n] e^(-2 pi j k n /
 * length), or with inverse the inverse transform divided by length (the sign +). onesided: only bins
 * 0 .. length / 2 (real input only, not with inverse). Output [..., bins, ..., 2] of input 0's
 * floating-point type: bins = length, or length / 2 + 1 onesided. Added in Backend API 2.6. */
typedef struct BpDftAttributes {
  uint32_t struct_size;
  int32_t axis;       /* 0 .. rank - 2 */
  int64_t length;     /* > 0, or 0: the axis' length */
  uint32_t inverse;   /* 0 or 1 */
  uint32_t onesided;  /* 0 or 1 */
} BpDftAttributes;

/* ONNX LRN of input 0 [N, C, D1, ...] (rank 3 or more, floating-point): y = x / (bias + alpha / size *
 * sum of x^2 over channels c - floor((size - 1) / 2) .. c + ceil((size - 1) / 2) that exist) ^ beta.
 * Added in Backend API 2.6. */
typedef struct BpLrnAttributes {
  uint32_t struct_size;
  uint32_t size;  /* >= 1 */
  float alpha;
  float beta;
  float bias;
} BpLrnAttributes;

#define BP_ACTIVATION_RELU 0u
#define BP_ACTIVATION_CLIP 1u
#define BP_ACTIVATION_SIGMOID 2u
#define BP_ACTIVATION_TANH 3u
#define BP_ACTIVATION_GELU 4u
#define BP_ACTIVATION_GELU_TANH 5u
#define BP_ACTIVATION_LEAKY_RELU 6u
#define BP_ACTIVATION_HARD_SWISH 7u
#define BP_ACTIVATION_SILU 8u
#define BP_ACTIVATION_HARD_SIGMOID 9u
/* Op set v2 additions: a plugin built against an older copy of this header refuses them as
 * unknown values (its C adapter's range check), so they need no version of their own. */
#define BP_ACTIVATION_ELU 10u
#define BP_ACTIVATION_SELU 11u
#define BP_ACTIVATION_CELU 12u
#define BP_ACTIVATION_SOFTPLUS 13u
#define BP_ACTIVATION_SOFTSIGN 14u
#define BP_ACTIVATION_THRESHOLDED_RELU 15u
#define BP_ACTIVATION_MISH 16u
typedef struct BpActivationAttributes {
  uint32_t struct_size;
  uint32_t function; /* BP_ACTIVATION_* */
  float alpha;
  float beta;
} BpActivationAttributes;

#define BP_BINARY_ADD 0u
#define BP_BINARY_SUB 1u
#define BP_BINARY_MUL 2u
#define BP_BINARY_DIV 3u
#define BP_BINARY_MAX 4u
#define BP_BINARY_MIN 5u
#define BP_BINARY_POW 6u
/* Added in op set v2 (a plugin built against an older header refuses them through its range
   check of the value: the layer goes to another backend). Comparisons give BP_DATA_TYPE_BOOL;
   AND, OR and XOR take and give it. */
#define BP_BINARY_EQUAL 7u
#define BP_BINARY_LESS 8u
#define BP_BINARY_LESS_OR_EQUAL 9u
#define BP_BINARY_GREATER 10u
#define BP_BINARY_GREATER_OR_EQUAL 11u
#define BP_BINARY_AND 12u
#define BP_BINARY_OR 13u
#define BP_BINARY_XOR 14u
/* Added in Backend API 2.3: remainders, on the arithmetic types. MOD's result has the divisor's
   sign (Python's %, ONNX Mod fmod=0); FMOD's the dividend's (C fmod, ONNX Mod fmod=1). */
#define BP_BINARY_MOD 15u
#define BP_BINARY_FMOD 16u
/* Added in Backend API 2.4: bit shifts of the first input by the second, on the unsigned integer
   types (ONNX BitShift); a shift by the bit width or more gives 0. */
#define BP_BINARY_BIT_SHIFT_LEFT 17u
#define BP_BINARY_BIT_SHIFT_RIGHT 18u
typedef struct BpElementwiseBinaryAttributes {
  uint32_t struct_size;
  uint32_t operation; /* BP_BINARY_* */
} BpElementwiseBinaryAttributes;

#define BP_UNARY_SQRT 0u
#define BP_UNARY_EXP 1u
#define BP_UNARY_LOG 2u
#define BP_UNARY_ABS 3u
#define BP_UNARY_NEG 4u
#define BP_UNARY_ERF 5u
#define BP_UNARY_RECIPROCAL 6u
/* Op set v2 additions: a plugin built against an older copy of this header refuses them as
 * unknown values (its C adapter's range check), so they need no version of their own. */
#define BP_UNARY_SIN 7u
#define BP_UNARY_COS 8u
#define BP_UNARY_TAN 9u
#define BP_UNARY_ASIN 10u
#define BP_UNARY_ACOS 11u
#define BP_UNARY_ATAN 12u
#define BP_UNARY_SINH 13u
#define BP_UNARY_COSH 14u
#define BP_UNARY_ASINH 15u
#define BP_UNARY_ACOSH 16u
#define BP_UNARY_ATANH 17u
#define BP_UNARY_SIGN 18u
#define BP_UNARY_CEIL 19u
#define BP_UNARY_FLOOR 20u
#define BP_UNARY_ROUND 21u
#define BP_UNARY_NOT 22u /* op set v2: BP_DATA_TYPE_BOOL input and output */
typedef struct BpElementwiseUnaryAttributes {
  uint32_t struct_size;
  uint32_t operation; /* BP_UNARY_* */
} BpElementwiseUnaryAttributes;

typedef struct BpSoftmaxAttributes {
  uint32_t struct_size;
  int32_t axis;
} BpSoftmaxAttributes;

typedef struct BpBatchNormalizationAttributes {
  uint32_t struct_size;
  float epsilon;
} BpBatchNormalizationAttributes;

typedef struct BpLayerNormalizationAttributes {
  uint32_t struct_size;
  int32_t axis;
  float epsilon;
} BpLayerNormalizationAttributes;

#define BP_REDUCE_MEAN 0u
#define BP_REDUCE_SUM 1u
/* Added in op set v2 (a plugin built against an older header refuses these through its range
   check of the value: the layer goes to another backend). */
#define BP_REDUCE_MAX 2u
#define BP_REDUCE_MIN 3u
#define BP_REDUCE_PROD 4u
#define BP_REDUCE_SUM_SQUARE 5u
#define BP_REDUCE_L1 6u
#define BP_REDUCE_L2 7u
#define BP_REDUCE_LOG_SUM 8u
#define BP_REDUCE_LOG_SUM_EXP 9u
typedef struct BpReduceAttributes {
  uint32_t struct_size;
  uint32_t operation; /* BP_REDUCE_* */
  const int32_t* axes;
  size_t axis_count; /* 0: all axes */
  uint32_t keep_dims; /* 0 or 1 */
} BpReduceAttributes;

typedef struct BpReshapeAttributes {
  uint32_t struct_size;
  const int64_t* shape;
  size_t rank;
} BpReshapeAttributes;

typedef struct BpFlattenAttributes {
  uint32_t struct_size;
  int32_t axis;
} BpFlattenAttributes;

typedef struct BpTransposeAttributes {
  uint32_t struct_size;
  const uint32_t* permutation;
  size_t rank; /* 0: reverse the axes */
} BpTransposeAttributes;

typedef struct BpConcatAttributes {
  uint32_t struct_size;
  int32_t axis;
} BpConcatAttributes;

typedef struct BpSplitAttributes {
  uint32_t struct_size;
  int32_t axis;
  const int64_t* sizes;
  size_t count;
} BpSplitAttributes;

typedef struct BpSliceAttributes {
  uint32_t struct_size;
  const int64_t* starts;
  const int64_t* ends;
  size_t count;        /* of starts and of ends */
  const int32_t* axes; /* axis_count entries; 0: axes 0 .. count-1 */
  size_t axis_count;
  const int64_t* steps; /* step_count entries; 0: all 1 */
  size_t step_count;
} BpSliceAttributes;

typedef struct BpGatherAttributes {
  uint32_t struct_size;
  int32_t axis;
} BpGatherAttributes;

/* ONNX GatherElements: output[i...] = data[i... with axis replaced by indices[i...]]; the
 * output has indices' shape (negative indices count from the end). */
typedef struct BpGatherElementsAttributes {
  uint32_t struct_size;
  int32_t axis;
} BpGatherElementsAttributes;

#define BP_ARG_MAX 0u
#define BP_ARG_MIN 1u
/* ONNX ArgMax / ArgMin: the output is BP_DATA_TYPE_I64; ties give the first index, or the last
 * with select_last_index. NaN counts as larger than every number (ArgMax picks it). */
typedef struct BpArgMinMaxAttributes {
  uint32_t struct_size;
  uint32_t operation; /* BP_ARG_* */
  int32_t axis;
  uint32_t keep_dims;         /* 0 or 1 */
  uint32_t select_last_index; /* 0 or 1 */
} BpArgMinMaxAttributes;

/* ONNX Resize (and Upsample): each axis resampled on its own, from the last axis to the first,
 * as ONNX's reference does. The output has shape `sizes`; output position x of axis a maps to
 * input coordinate f(x) by the coordinate transformation with scales[a] (the float factor,
 * which need not equal sizes[a] / input length) and, for TF_CROP_AND_RESIZE, roi (starts then
 * ends, normalized; outside the input the output is extrapolation_value); the mode weighs the
 * neighbours of f(x) (edge values beyond the input; EXCLUDE_OUTSIDE gives those weight 0). */
#define BP_RESIZE_NEAREST 0u
#define BP_RESIZE_LINEAR 1u
#define BP_RESIZE_CUBIC 2u
#define BP_RESIZE_HALF_PIXEL 0u          /* (x + 0.5) / scale - 0.5 */
#define BP_RESIZE_ASYMMETRIC 1u          /* x / scale */
#define BP_RESIZE_PYTORCH_HALF_PIXEL 2u  /* half pixel, -0.5 for an output of length 1 */
#define BP_RESIZE_ALIGN_CORNERS 3u       /* x (in - 1) / (out - 1), 0 for an output of length 1 */
#define BP_RESIZE_TF_CROP_AND_RESIZE 4u
#define BP_RESIZE_TF_HALF_PIXEL_FOR_NN 5u /* (x + 0.5) / scale */
#define BP_RESIZE_ROUND_PREFER_FLOOR 0u
#define BP_RESIZE_ROUND_PREFER_CEIL 1u
#define BP_RESIZE_FLOOR 2u
#define BP_RESIZE_CEIL 3u
typedef struct BpResizeAttributes {
  uint32_t struct_size;
  uint32_t mode;                      /* BP_RESIZE_NEAREST .. CUBIC */
  uint32_t coordinate_transformation; /* BP_RESIZE_HALF_PIXEL .. TF_HALF_PIXEL_FOR_NN */
  uint32_t nearest_mode;              /* BP_RESIZE_ROUND_PREFER_FLOOR .. CEIL */
  float cubic_coeff_a;
  uint32_t exclude_outside; /* 0 or 1 */
  float extrapolation_value;
  const int64_t* sizes; /* the output shape */
  const double* scales; /* one factor per axis */
  size_t rank;
  const float* roi; /* TF_CROP_AND_RESIZE: 2 * rank values; else none */
  size_t roi_count;
} BpResizeAttributes;

/* ONNX Trilu on the last two axes [.., M, N]: keeps element (i, j) when j - i >= k (upper) or
 * j - i <= k (lower), zeroes the others. k is the field, or the layer's optional input 1 (an
 * i64 scalar, read at run time) when it has one. */
typedef struct BpTriluAttributes {
  uint32_t struct_size;
  uint32_t upper; /* 0 or 1 */
  int64_t k;
} BpTriluAttributes;

/* ONNX TopK with a constant k: outputs the values and their i64 positions, largest (or smallest)
 * first; equal values in the order of their positions; NaN counts as larger than every number. */
typedef struct BpTopKAttributes {
  uint32_t struct_size;
  int32_t axis;
  int64_t k;
  uint32_t largest; /* 0 or 1 */
} BpTopKAttributes;

/* ONNX CumSum: out[i] = sum of x[j] for j <= i (j < i when exclusive; counted from the end when
 * reverse) along `axis`, or along the value of the layer's optional input 1 (one i32 or i64,
 * read at run time) when it has one. */
typedef struct BpCumSumAttributes {
  uint32_t struct_size;
  int32_t axis;
  uint32_t exclusive; /* 0 or 1 */
  uint32_t reverse;   /* 0 or 1 */
} BpCumSumAttributes;

#define BP_SCATTER_NONE 0u
#define BP_SCATTER_ADD 1u
#define BP_SCATTER_MUL 2u
#define BP_SCATTER_MAX 3u
#define BP_SCATTER_MIN 4u
/* ONNX ScatterElements: a copy of data where, for every position p of indices, the element at p
 * with `axis` replaced by indices[p] becomes updates[p] (or is combined with it); positions are
 * applied in order, so with BP_SCATTER_NONE the last of duplicates wins. */
typedef struct BpScatterElementsAttributes {
  uint32_t struct_size;
  int32_t axis;
  uint32_t reduction; /* BP_SCATTER_* */
} BpScatterElementsAttributes;

/* ONNX GatherND: indices [..., q] (i64, negative from the end) pick slices of data after its
 * first batch_dims axes. */
typedef struct BpGatherNdAttributes {
  uint32_t struct_size;
  int32_t batch_dims;
} BpGatherNdAttributes;

#define BP_PAD_CONSTANT 0u
#define BP_PAD_REFLECT 1u
#define BP_PAD_EDGE 2u
typedef struct BpPadAttributes {
  uint32_t struct_size;
  const int64_t* pads; /* begin of each axis, then end of each axis */
  size_t count;
  uint32_t mode; /* BP_PAD_* */
  float value;
} BpPadAttributes;

typedef struct BpCastAttributes {
  uint32_t struct_size;
  uint32_t to; /* BP_DATA_TYPE_* */
} BpCastAttributes;

typedef struct BpConstantAttributes {
  uint32_t struct_size;
  BpTensorInfo info;
  const void* data; /* dense, info's bytes */
} BpConstantAttributes;

/* A layer a backend made in optimize_subgraph (BpSubstitution): `payload` is what the backend
 * returned there, handed back unchanged to the same backend's workload factory. */
typedef struct BpPreCompiledAttributes {
  uint32_t struct_size;
  void* payload;
} BpPreCompiledAttributes;

/* Where a layer's input comes from: output `output` of the layer named `layer` (names are unique
 * in a network; Input and Constant layers are layers too). `layer` is empty when unknown. */
typedef struct BpProducer {
  BpString layer;
  size_t output;
} BpProducer;

/* One layer of a network, as the runtime shows it to a backend. Filled by the runtime; valid
 * during the call it is passed to, except `constant_inputs[i]` data, valid as long as the
 * network is loaded (a workload may keep the pointer or repack the data). */
typedef struct BpLayer {
  uint32_t struct_size;
  uint32_t type; /* BP_LAYER_* */
  BpString name;
  const BpTensorInfo* inputs;
  size_t input_count;
  const BpTensorInfo* outputs;
  size_t output_count;
  const void* attributes; /* Bp<Type>Attributes for `type`, or null */
  /* Per input: the data when it comes from a Constant layer (dense, as inputs[i] says), or null
   * when it is computed at run time. */
  const void* const* constant_inputs;
  /* Per input: its producer. */
  const BpProducer* producers;
  /* Per output: how many layer inputs in the whole network (Output layers included) read it;
   * SIZE_MAX when unknown. */
  const size_t* output_consumer_counts;
} BpLayer;

/* ---- Tensor handles (spec 002) ---------------------------------------------------------- */

/* Memory kinds (a bit mask where several are possible). */
#define BP_MEMORY_HOST 1u /* ordinary CPU-addressable memory */

struct BpTensorHandleTable;
/* Memory holding one tensor. Created by a tensor-handle factory (plugin) or by the runtime (host
 * memory); owned by whoever created it. Not thread-safe: one run uses one handle at a time. */
typedef struct BpTensorHandle {
  const struct BpTensorHandleTable* table;
} BpTensorHandle;

typedef struct BpTensorHandleTable {
  uint32_t struct_size;
  void (*destroy)(BpTensorHandle* self);
  /* Optional (the runtime knows what it asked for). Fills `info`; its dims are valid as long as
   * the handle. */
  void (*get_info)(const BpTensorHandle* self, BpTensorInfo* info);
  /* A CPU-addressable pointer to the first element, valid until unmap. */
  BpStatus* (*map)(BpTensorHandle* self, void** data);
  void (*unmap)(BpTensorHandle* self);
  /* Optional (none: never imports). Makes the handle use `memory` (of `source`, BP_MEMORY_*, at least the tensor's bytes)
   * without a copy; *imported = 0, changing nothing, when it cannot. The caller keeps ownership
   * of `memory` and keeps it alive while the handle uses it. */
  BpStatus* (*import_memory)(BpTensorHandle* self, void* memory, uint32_t source, uint32_t* imported);
} BpTensorHandleTable;

typedef struct BpTensorHandleFactoryProperties {
  uint32_t struct_size;
  uint32_t supports_map_unmap; /* 0 or 1 */
  uint32_t import_sources;     /* BP_MEMORY_* bits import_memory accepts */
  uint32_t export_sources;     /* BP_MEMORY_* bits its handles can be exported as */
} BpTensorHandleFactoryProperties;

struct BpTensorHandleFactoryTable;
/* Creates tensor handles of one kind. Thread-safe. */
typedef struct BpTensorHandleFactory {
  const struct BpTensorHandleFactoryTable* table;
} BpTensorHandleFactory;

typedef struct BpTensorHandleFactoryTable {
  uint32_t struct_size;
  void (*destroy)(BpTensorHandleFactory* self);
  /* "Vendor/Backend/Factory", globally unique; valid as long as the factory. */
  BpString (*get_id)(const BpTensorHandleFactory* self);
  /* Optional (none: map/unmap supported, no import or export). Fills `properties` (the runtime
   * sets properties->struct_size first; fill only what fits). */
  void (*get_properties)(const BpTensorHandleFactory* self, BpTensorHandleFactoryProperties* properties);
  /* A new handle, owned by the caller. */
  BpStatus* (*create_handle)(const BpTensorHandleFactory* self, const BpTensorInfo* info, BpTensorHandle** handle);
} BpTensorHandleFactoryTable;

struct BpTensorHandleFactoryRegistryTable;
/* The runtime's: where a backend registers its factories for one loaded network. */
typedef struct BpTensorHandleFactoryRegistry {
  const struct BpTensorHandleFactoryRegistryTable* table;
} BpTensorHandleFactoryRegistry;

typedef struct BpTensorHandleFactoryRegistryTable {
  uint32_t struct_size;
  /* Takes ownership of `factory`, also when it fails (a duplicate or malformed id). */
  BpStatus* (*register_factory)(BpTensorHandleFactoryRegistry* self, BpTensorHandleFactory* factory);
} BpTensorHandleFactoryRegistryTable;

/* ---- Workloads (spec 004) ---------------------------------------------------------------- */

/* Per-run bindings, owned by the runtime, valid during execute. */
typedef struct BpWorkloadArgs {
  uint32_t struct_size;
  BpTensorHandle* const* inputs;
  size_t input_count;
  BpTensorHandle* const* outputs;
  size_t output_count;
  void* scratch; /* get_scratch_size() bytes, 64-byte aligned, or null when 0 */
} BpWorkloadArgs;

/* What runs a workload, for profiles (2.1). Filled by the plugin; the runtime reads each field
 * only when struct_size holds it. Empty strings say nothing. */
typedef struct BpWorkloadInfo {
  uint32_t struct_size;
  BpString implementation; /* the kernel or library path that runs it, e.g. oneDNN's "jit:avx2" */
  BpString slow_path;      /* why it runs a path the backend knows to be slow (a reference kernel, a
                              fallback for an unusual layout), or empty */
} BpWorkloadInfo;

struct BpWorkloadTable;
/* The compiled form of one layer. Created once per loaded network; execute may run
 * concurrently on different BpWorkloadArgs (everything that changes per run comes in args). */
typedef struct BpWorkload {
  const struct BpWorkloadTable* table;
} BpWorkload;

typedef struct BpWorkloadTable {
  uint32_t struct_size;
  void (*destroy)(BpWorkload* self);
  BpStatus* (*execute)(const BpWorkload* self, const BpWorkloadArgs* args);
  /* Optional (none: 0). Bytes of per-run working memory execute needs in args->scratch. */
  size_t (*get_scratch_size)(const BpWorkload* self);
  /* Optional (none: the backend says nothing), 2.1. What runs this workload. The result and its
   * strings are the plugin's, unchanged and valid until the workload is destroyed; null is the
   * same as none. May be called from any thread, also while execute runs. */
  const BpWorkloadInfo* (*get_info)(const BpWorkload* self);
} BpWorkloadTable;

struct BpWorkloadFactoryTable;
/* Creates the workloads of one loaded network on one backend; lives as long as that network.
 * Called from one thread at a time. */
typedef struct BpWorkloadFactory {
  const struct BpWorkloadFactoryTable* table;
} BpWorkloadFactory;

typedef struct BpWorkloadFactoryTable {
  uint32_t struct_size;
  void (*destroy)(BpWorkloadFactory* self);
  /* A new workload for `layer`, owned by the caller; BP_STATUS_UNSUPPORTED naming the layer when
   * it cannot. */
  BpStatus* (*create_workload)(BpWorkloadFactory* self, const BpLayer* layer, BpWorkload** workload);
} BpWorkloadFactoryTable;

/* ---- Memory manager, backend context, layer support ------------------------------------- */

struct BpMemoryManagerTable;
/* A backend's pool of working memory for one loaded network: acquired before the first run,
 * released when the network is unloaded. Calls are serialized by the runtime. */
typedef struct BpMemoryManager {
  const struct BpMemoryManagerTable* table;
} BpMemoryManager;

typedef struct BpMemoryManagerTable {
  uint32_t struct_size;
  void (*destroy)(BpMemoryManager* self);
  /* Optional each (none: nothing to do). */
  BpStatus* (*acquire)(BpMemoryManager* self);
  BpStatus* (*release)(BpMemoryManager* self);
} BpMemoryManagerTable;

struct BpBackendContextTable;
/* Per-runtime state of a backend, held for the runtime's lifetime. Calls for one network come
 * in the order before_load, after_load, before_unload, after_unload; calls never run
 * concurrently. A non-null status from a before_* call makes the runtime abort that load. */
typedef struct BpBackendContext {
  const struct BpBackendContextTable* table;
} BpBackendContext;

typedef struct BpBackendContextTable {
  uint32_t struct_size;
  void (*destroy)(BpBackendContext* self);
  /* Optional each (none: accepts). */
  BpStatus* (*before_load_network)(BpBackendContext* self, uint64_t network);
  BpStatus* (*after_load_network)(BpBackendContext* self, uint64_t network);
  BpStatus* (*before_unload_network)(BpBackendContext* self, uint64_t network);
  BpStatus* (*after_unload_network)(BpBackendContext* self, uint64_t network);
} BpBackendContextTable;

struct BpLayerSupportTable;
/* Answers which layers a backend can run. Thread-safe: may be asked from several threads. */
typedef struct BpLayerSupport {
  const struct BpLayerSupportTable* table;
} BpLayerSupport;

typedef struct BpLayerSupportTable {
  uint32_t struct_size;
  void (*destroy)(BpLayerSupport* self);
  /* Null when the backend can run `layer` as described; BP_STATUS_UNSUPPORTED with a short reason
   * naming what is unsupported ("dilation 2 not supported") when not; any other code when it
   * failed to judge. */
  BpStatus* (*is_layer_supported)(const BpLayerSupport* self, const BpLayer* layer);
} BpLayerSupportTable;

/* ---- Subgraph optimization (spec 001 "The Optimizations") ------------------------------- */

/* A connected set of layers placed on one backend, in topological order. Valid during
 * optimize_subgraph. */
typedef struct BpSubgraph {
  uint32_t struct_size;
  const BpLayer* const* layers;
  size_t layer_count;
} BpSubgraph;

/* Layers of the offered subgraph, by their index in BpSubgraph::layers. */
typedef struct BpLayerIndices {
  const size_t* indices;
  size_t count;
} BpLayerIndices;

/* The backend takes over `replaced` as one PreCompiled layer named `name`. Its inputs are the
 * tensors entering `replaced` from outside, each once, in the order the listed layers read
 * them; its outputs are the tensors read outside, in the same order. `payload` is the
 * backend's own data for it (BpPreCompiledAttributes); the runtime gives it back to the
 * backend's workload factory and, when the network is dropped, to `destroy_payload` once. */
typedef struct BpSubstitution {
  uint32_t struct_size;
  BpLayerIndices replaced;
  BpString name;
  void* payload;
  void (*destroy_payload)(void* payload); /* may be null when payload needs no cleanup */
} BpSubstitution;

struct BpOptimizationTable;
/* What optimize_subgraph returns; owned by the runtime, which destroys it after reading it.
 * Each payload is taken over by the runtime when it accepts the substitution; a refused or
 * unread substitution's payload is destroyed with the result. */
typedef struct BpOptimization {
  const struct BpOptimizationTable* table;
} BpOptimization;

typedef struct BpOptimizationTable {
  uint32_t struct_size;
  void (*destroy)(BpOptimization* self);
  /* The three lists of spec 001, valid until destroy; optional each (none: empty).
   * take_payload (required when there are substitutions) tells the result that the runtime now
   * owns substitution `index`'s payload (it will not destroy it). */
  const BpSubstitution* (*substitutions)(const BpOptimization* self, size_t* count);
  const BpLayerIndices* (*failed)(const BpOptimization* self, size_t* count);
  const BpLayerIndices* (*untouched)(const BpOptimization* self, size_t* count);
  void (*take_payload)(BpOptimization* self, size_t index);
} BpOptimizationTable;

/* ---- Logging, options, capabilities ----------------------------------------------------- */

#define BP_LOG_DEBUG 0u
#define BP_LOG_INFO 1u
#define BP_LOG_WARNING 2u
#define BP_LOG_ERROR 3u

/* Categories (backplane::LogCategory); a backend usually writes "plugin", "optimize" or
 * "execute". */
#define BP_LOG_DISCOVERY 0u
#define BP_LOG_PLUGIN 1u
#define BP_LOG_OPTIMIZE 2u
#define BP_LOG_EXECUTE 3u

/* The runtime's log channel for one backend, valid as long as the backend context created with
 * it (BpBackendConfig). Thread-safe. `message` is valid during the call. Messages land in the
 * application's log sink, prefixed with the backend's id. */
typedef struct BpLogger {
  uint32_t struct_size;
  void* context;
  uint32_t (*is_enabled)(void* context, uint32_t level, uint32_t category);
  void (*write)(void* context, uint32_t level, uint32_t category, BpString message);
} BpLogger;

/* One option the application set for this backend ("threads" = "4"), validated against the
 * backend's declared options before the backend sees it. */
typedef struct BpOption {
  BpString key;
  BpString value;
} BpOption;

/* What the runtime gives create_backend_context; valid during the call, except `logger`, valid
 * as long as the created context. */
typedef struct BpBackendConfig {
  uint32_t struct_size;
  const BpOption* options;
  size_t option_count;
  const BpLogger* logger;
} BpBackendConfig;

#define BP_OPTION_STRING 0u
#define BP_OPTION_INTEGER 1u /* decimal, optional sign */
#define BP_OPTION_BOOLEAN 2u /* "0", "1", "true", "false" */

/* An option a backend accepts. */
typedef struct BpOptionSpec {
  BpString key;
  uint32_t type; /* BP_OPTION_* */
  BpString default_value;
  BpString doc; /* one line */
} BpOptionSpec;

#define BP_DEVICE_CPU 0u
#define BP_DEVICE_GPU 1u
#define BP_DEVICE_ACCELERATOR 2u

typedef struct BpDeviceInfo {
  BpString name;
  uint32_t kind; /* BP_DEVICE_* */
  uint32_t available; /* 0 or 1 */
  BpString reason; /* why not available; empty when available */
} BpDeviceInfo;

/* A named capability of spec 001, e.g. {"ProtectedContentAllocation", 0}. */
typedef struct BpNamedFlag {
  BpString name;
  uint32_t value; /* 0 or 1 */
} BpNamedFlag;

struct BpBackendInfoTable;
/* What a backend reports about itself; owned by the runtime, valid until destroy. */
typedef struct BpBackendInfo {
  const struct BpBackendInfoTable* table;
} BpBackendInfo;

typedef struct BpBackendInfoData {
  uint32_t struct_size;
  uint32_t device_kind; /* BP_DEVICE_* */
  const uint32_t* data_types; /* BP_DATA_TYPE_* */
  size_t data_type_count;
  const uint32_t* layer_types; /* BP_LAYER_* */
  size_t layer_type_count;
  const BpNamedFlag* flags;
  size_t flag_count;
  const BpDeviceInfo* devices;
  size_t device_count;
  const BpOptionSpec* options;
  size_t option_count;
  const BpString* handle_factory_preferences; /* factory ids, most preferred first */
  size_t handle_factory_preference_count;
} BpBackendInfoData;

typedef struct BpBackendInfoTable {
  uint32_t struct_size;
  void (*destroy)(BpBackendInfo* self);
  /* Valid until destroy. */
  const BpBackendInfoData* (*data)(const BpBackendInfo* self);
} BpBackendInfoTable;

/* ---- The backend ------------------------------------------------------------------------ */

struct BpBackendTable;
/* What BackendFactory() returns (as void*), owned by the runtime. Stateless and cheap (spec 001,
 * 004): the runtime makes instances when it needs them; per-network state lives in workload
 * factories and workloads, per-runtime state in the backend context. Thread-safe. */
typedef struct BpBackend {
  const struct BpBackendTable* table;
} BpBackend;

typedef struct BpBackendTable {
  uint32_t struct_size;
  void (*destroy)(BpBackend* self);
  /* The id, equal to GetBackendId(); valid as long as the library is loaded. */
  BpString (*get_id)(const BpBackend* self);
  /* What the backend is: capabilities, options, handle-factory preferences, and (before 2.6, or
   * without get_devices) its devices. With get_devices, it must not initialise a device: the
   * runtime calls it for every registered backend, used or not. */
  BpStatus* (*get_info)(const BpBackend* self, BpBackendInfo** info);
  /* Optional (none: no context). Called once per runtime, right after registration; `context`
   * may be left null. */
  BpStatus* (*create_backend_context)(const BpBackend* self, const BpBackendConfig* config,
                                      BpBackendContext** context);
  /* Optional (none: available). Whether the backend can run here with this runtime's `context`
   * (maybe null): null status when available, BP_STATUS_UNSUPPORTED with the reason when not.
   * May initialise the device: the runtime asks (at most once per runtime) only when the backend
   * is about to be used or described (placement on it, Runtime::GetBackends, sdk-info). */
  BpStatus* (*check_available)(const BpBackend* self, BpBackendContext* context);
  BpStatus* (*create_layer_support)(const BpBackend* self, BpLayerSupport** support);
  /* Optional (none: every layer untouched). May leave *result null: the same. */
  BpStatus* (*optimize_subgraph)(const BpBackend* self, const BpSubgraph* subgraph, BpOptimization** result);
  /* Optional (none: no manager). Once per loaded network, before create_workload_factory; may
   * leave *manager null. */
  BpStatus* (*create_memory_manager)(const BpBackend* self, BpMemoryManager** manager);
  /* One per loaded network. `manager` is what create_memory_manager gave (maybe null), owned by
   * the runtime and alive as long as the factory; `context` is this runtime's backend context
   * (maybe null: the optimizer folding constants has none), alive as long as the factory. */
  BpStatus* (*create_workload_factory)(const BpBackend* self, BpMemoryManager* manager,
                                       BpBackendContext* context, BpWorkloadFactory** factory);
  /* Optional (none: host memory only). Registers this backend's tensor-handle factories for one
   * loaded network (spec 002). */
  BpStatus* (*register_tensor_handle_factories)(const BpBackend* self, BpTensorHandleFactoryRegistry* registry);
  /* Optional, 2.6 (none: the devices are get_info's). The backend's devices in a BpBackendInfo
   * whose device fields alone are read. May initialise the device; asked when check_available
   * is (above). A backend that has it leaves get_info device-free, so a runtime where it takes no
   * layer never opens its device. */
  BpStatus* (*get_devices)(const BpBackend* self, BpBackendInfo** info);
} BpBackendTable;

/* ---- Entry points and identity (spec 001) ----------------------------------------------- */

/* 'B','K','P','L' as a little-endian word. */
#define BACKPLANE_PLUGIN_MAGIC 0x4C504B42u
#define BACKPLANE_PLUGIN_IDENTITY_SYMBOL "BackplanePluginIdentityV1"

/* Plain data, exported as BackplanePluginIdentityV1 and checked before any function of the
 * library is called. Strings are static and NUL-terminated. */
typedef struct BackplanePluginIdentity {
  uint32_t magic;       /* BACKPLANE_PLUGIN_MAGIC */
  uint32_t struct_size; /* sizeof(BackplanePluginIdentity) of the plugin's SDK */
  const char* sdk_name; /* "Backplane" */
  uint32_t api_major;   /* the Backend API the plugin was compiled against */
  uint32_t api_minor;
  const char* platform; /* "linux-x86_64", ... (BACKPLANE_PLATFORM_TAG) */
  const char* abi;      /* "c" since 2.0: the boundary is C (BACKPLANE_ABI_TAG) */
  const char* backend_id;
  const char* vendor;
  const char* plugin_version;
  /* Why the last BackendFactory() on this thread returned null, or "" (static storage). */
  const char* (*last_factory_error)(void);
} BackplanePluginIdentity;

/* The exported functions:
 *   const char* GetBackendId(void);                    static string
 *   void GetVersion(uint32_t* major, uint32_t* minor); the Backend API version
 *   void* BackendFactory(void);                        a new BpBackend*, or null
 */
typedef const char* (*BpGetBackendIdFunction)(void);
typedef void (*BpGetVersionFunction)(uint32_t* major, uint32_t* minor);
typedef void* (*BpBackendFactoryFunction)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BACKPLANE_BACKEND_C_API_H */
