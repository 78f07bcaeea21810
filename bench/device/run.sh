#!/usr/bin/env bash
# On a device machine (see pack.sh): bench/dawn.ts on the real GPU through Dawn for Node and
# Vulkan: the training step against TensorFlow.js, then decoding, micro at batch 1/8/32/64 and
# small at 1/8/64, f32 weights, half weights, and half weights with f16 arithmetic where the
# adapter has shader-f16. Writes $OUT/dawn-micro.json,
# $OUT/dawn-small.json and $OUT/log.txt (OUT defaults to ./device-out). Also runs here, on
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
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
BIN=/tmp/device-bin
mkdir -p "$BIN"
xz -dc .device/node.xz > "$BIN/node" && chmod +x "$BIN/node"
dawn=.device/node_modules/webgpu/dist/linux-x64/dawn.node
[ -e "$dawn" ] || xz -dc "$dawn.xz" > "$dawn"
echo "== $("$BIN/node" --version)"
status=0
"$BIN/node" .device/dawn-bench.mjs --batches 1,8,32,64 --steps 12 --json > "$OUT/dawn-micro.json" || status=$?
"$BIN/node" .device/dawn-bench.mjs --preset small --batches 1,8,64 --steps 8 --json > "$OUT/dawn-small.json" || status=$?
cat "$OUT"/dawn-*.json
exit $status
