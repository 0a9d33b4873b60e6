# Sourced by install.sh and install-deps.sh: installs the Debian packages given that are not
# installed yet (apt as root, directly or through sudo); does nothing when all are there.
install_missing() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "tandem: installing ${missing[*]}" >&2
  local sudo=""
  [[ $(id -u) == 0 ]] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
