/** Plain arrays the CPU references compute on: f32 in the backend, f64 in gradient checks. */
export type Vec = Float32Array | Float64Array;
