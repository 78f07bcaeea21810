#!/usr/bin/env bash
# On a device machine (see pack.sh): every GPU kernel test ($OUT/gpu-tests.txt), then bench/dawn.ts
# on the real GPU through Dawn for Node and Vulkan: the training step against TensorFlow.js, the forward pass against onnxruntime-web, then decoding, micro at batch 1/8/32/64 and
# small at 1/8/64, f32 weights, half weights, and half weights with f16 arithmetic where the
# adapter has shader-f16; then op-by-op profiles of a training step (micro, small) and a batch-64
# decoding step; last, a training step at T=512 with the attention probabilities saved in halves vs
# f32. Writes $OUT/gpu-tests.txt, $OUT/dawn-micro.json, $OUT/dawn-small.json,
# $OUT/profile-*.txt, $OUT/rl-memory-micro.txt, $OUT/saved-attention-*.txt and $OUT/log.txt (OUT defaults to ./device-out). Also runs here, on
# lavapipe, as a check of the pack.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-$PWD/device-out}"
mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
[ -d .device ] || { echo "no .device/: run bash bench/device/pack.sh first and carry .device"; exit 2; }
if ! ldconfig -p | grep -q 'libvulkan.so.1'; then
  for f in .device/gl/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
  ldconfig
fi
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -e "$icd" ]; then export VK_DRIVER_FILES="$icd"; echo "== Vulkan ICD $icd"; break; fi
done
if [ -z "${VK_DRIVER_FILES:-}" ]; then
  # No ICD manifest (a container given the driver's libraries but not its Vulkan manifest): write
  # one for NVIDIA's Vulkan driver, which lives in libGLX_nvidia.so.0, when that library is here.
  lib="$(ldconfig -p | grep -o '/[^ ]*libGLX_nvidia\.so\.0$' | head -1)"
  [ -n "$lib" ] || lib="$(find / -xdev -name 'libGLX_nvidia.so.0' 2>/dev/null | head -1)"
  if [ -n "$lib" ]; then
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$lib" > /tmp/nvidia_icd.json
    export VK_DRIVER_FILES=/tmp/nvidia_icd.json
    echo "== no Vulkan ICD manifest; wrote /tmp/nvidia_icd.json for $lib"
  else
    echo "== no NVIDIA Vulkan ICD found: manifests $(ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d 2>/dev/null | tr '\n' ' ');" \
      "NVIDIA libraries: $(ldconfig -p | grep -io 'lib[a-z_]*nvidia[a-z_-]*\.so[.0-9]*' | sort -u | tr '\n' ' ')"
  fi
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
BIN=/tmp/device-bin
mkdir -p "$BIN"
xz -dc .device/node.xz > "$BIN/node" && chmod +x "$BIN/node"
dawn=.device/node_modules/webgpu/dist/linux-x64/dawn.node
[ -e "$dawn" ] || xz -dc "$dawn.xz" > "$dawn"
ortwasm=.device/node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.jsep.wasm
[ -e "$ortwasm" ] || xz -dc "$ortwasm.xz" > "$ortwasm"
echo "== $("$BIN/node" --version)"
status=0
# First every GPU kernel test against its CPU reference: a real GPU's compiler may round, contract or
# order differently from the software adapters CI has (one line a test, then a JSON summary).
"$BIN/node" .device/gpu-tests.mjs > "$OUT/gpu-tests.txt" || status=$?
grep -v '^{' "$OUT/gpu-tests.txt" | grep -v '^ok ' || true
echo "== GPU tests: $(grep -c '^ok ' "$OUT/gpu-tests.txt") ok, $(grep -c '^FAIL' "$OUT/gpu-tests.txt") failed"
"$BIN/node" .device/dawn-bench.mjs --batches 1,8,32,64 --steps 12 --json > "$OUT/dawn-micro.json" || status=$?
"$BIN/node" .device/dawn-bench.mjs --preset small --batches 1,8,64 --steps 8 --json > "$OUT/dawn-small.json" || status=$?
cat "$OUT"/dawn-*.json
# Where a step's time goes on this GPU, op by op (each op replayed alone: submission included).
"$BIN/node" .device/dawn-bench.mjs --profile train > "$OUT/profile-train-micro.txt" || status=$?
"$BIN/node" .device/dawn-bench.mjs --profile train --preset small > "$OUT/profile-train-small.txt" || status=$?
"$BIN/node" .device/dawn-bench.mjs --profile decode --batch 64 > "$OUT/profile-decode-micro-b64.txt" || status=$?
head -n 12 "$OUT"/profile-*.txt
echo "== an RL run's device memory, step by step (micro)"
"$BIN/node" .device/dawn-bench.mjs --rl-memory --preset micro --rl-steps 4 > "$OUT/rl-memory-micro.txt" || status=$?
cat "$OUT/rl-memory-micro.txt"
# Attention probabilities saved in halves vs f32 at the full context: device memory, ms a step, losses.
"$BIN/node" .device/dawn-bench.mjs --saved-attention --batch 4 --tokens 512 --train-steps 4 > "$OUT/saved-attention-micro.txt" || status=$?
"$BIN/node" .device/dawn-bench.mjs --saved-attention --preset small --batch 4 --tokens 512 --train-steps 4 > "$OUT/saved-attention-small.txt" || status=$?
cat "$OUT"/saved-attention-*.txt
exit $status
