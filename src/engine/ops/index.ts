/** Every op's CPU and WebGPU entry points, for the two backends to route to. */
export * from './elementwise';
export * from './bias';
export * from './matmul';
export * from './embedding';
export * from './layernorm';
export * from './gelu';
export * from './attention';
export * from './kvattention';
export * from './softmax';
export * from './crossentropy';
export * from './adamw';
export * from './clip';
export * from './policyloss';
export * from './advantage';
