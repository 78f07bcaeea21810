/**
 * onnxruntime-web for the browser, served from our own origin: the default ESM bundle (wasm + the
 * WebGPU execution provider, JSEP) carries its JS glue inline, and the one file it fetches, the
 * JSEP wasm binary (~28 MB), is emitted by Vite as an asset of this app (`?url`) and pointed to by
 * env.wasm.wasmPaths, so no request goes to a CDN. Single-threaded (the page is cross-origin
 * isolated, but ORT's threads would be more workers beside the engine's, which use the cores), and
 * the proxy worker stays off.
 *
 * Import this module lazily (`await import('./ortBrowser')`): it pulls in ORT's ~400 KB of JS.
 */
import * as ort from 'onnxruntime-web';
import wasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.jsep.wasm?url';

// Resolved against the page (or worker) URL: no page here sets a <base>, so this is document.baseURI.
ort.env.wasm.wasmPaths = { wasm: new URL(wasmUrl, location.href).href };
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'error';

export { ort };
