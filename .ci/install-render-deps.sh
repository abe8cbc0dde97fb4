#!/usr/bin/env bash
# Installs the software GPU driver the headless renderer (three.js WebGPURenderer on Dawn) needs on a
# CPU-only Debian 12 machine: Mesa's lavapipe Vulkan from bookworm-backports (stock Mesa 22.3 is
# rejected by Dawn) plus EGL/GLES, which Dawn's fallback GLES backend uses. Idempotent and
# non-interactive; needs root (or sudo).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

BACKPORTS_LIST=/etc/apt/sources.list.d/bookworm-backports.list
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo 'deb http://deb.debian.org/debian bookworm-backports main' | $SUDO tee "$BACKPORTS_LIST" >/dev/null
fi

$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends -t bookworm-backports mesa-vulkan-drivers
$SUDO apt-get install -y -q --no-install-recommends libvulkan1 libegl1 libgles2 libegl-mesa0

# Show what Dawn will find, so a CI log says which driver rendered the images.
dpkg-query -W -f='${Package} ${Version}\n' mesa-vulkan-drivers libvulkan1 libegl-mesa0 2>/dev/null || true
