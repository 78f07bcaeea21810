#!/usr/bin/env bash
# Packs what `bench/device/run.sh` needs on a GPU machine that can fetch nothing (an NVIDIA GPU,
# no Node, no npm registry) into .device/ (ignored by git, about 40 MB): a Node binary (xz), the Dawn for Node addon for linux-x64, the GPU kernel tests and the Dawn benchmark
# (training step vs TensorFlow.js, forward pass vs onnxruntime-web, decoding) each bundled into one file, onnxruntime-web's browser bundle and wasm, and
# Debian's Vulkan loader. Run it here (after npm ci), copy .device/ and this tree to the GPU
# machine, run `bash bench/device/run.sh` there with OUT set to a folder, and read $OUT/dawn-*.json. Nothing here is a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
rm -rf .device && mkdir -p .device/node_modules/webgpu/dist/linux-x64 .device/gl
echo "== bundling bench/dawn.ts"
node bench/dawn-bundle.mjs .device/dawn-bench.mjs
echo "== bundling bench/device/gpu-tests.ts (every GPU kernel test, without vitest)"
node bench/dawn-bundle.mjs .device/gpu-tests.mjs bench/device/gpu-tests.ts
echo "== the webgpu package (linux-x64 addon only)"
cp node_modules/webgpu/package.json node_modules/webgpu/index.js .device/node_modules/webgpu/
xz -T2 -3 -c node_modules/webgpu/dist/linux-x64/dawn.node > .device/node_modules/webgpu/dist/linux-x64/dawn.node.xz
echo "== onnxruntime-web's browser bundle, its JSEP glue and wasm (xz), for the forward-pass comparison"
ort=node_modules/onnxruntime-web/dist
mkdir -p .device/$ort
cp $ort/ort.bundle.min.mjs $ort/ort-wasm-simd-threaded.jsep.mjs .device/$ort/
xz -T2 -6 -c $ort/ort-wasm-simd-threaded.jsep.wasm > .device/$ort/ort-wasm-simd-threaded.jsep.wasm.xz
echo "== node $(node --version) (xz)"
xz -T2 -3 -c "$(command -v node)" > .device/node.xz
echo "== Debian's Vulkan loader (the device may have none; its NVIDIA driver brings the ICD)"
(cd .device/gl && apt-get download libvulkan1 >/dev/null 2>&1) || echo "   (apt-get download libvulkan1 failed: run.sh then relies on the device's own loader)"
du -sh .device
