#!/usr/bin/env bash
# Maintainer tool, not part of the build: refresh raw/<lang>/ from Debian's packages and rewrite
# raw/<lang>/SOURCES. Needs apt-get (Debian/Ubuntu); the build itself never runs this.
#   usage: scripts/import-debian-raw.sh [LANG...]      (default: all seven)
set -euo pipefail
cd "$(dirname "$0")/.."

# lang  dict-package  dict-file  aspell-package  top-level .multi  license (dict; aspell)
table='
en wamerican american-english aspell-en en.multi SCOWL-permissive;SCOWL-permissive
fr wfrench french aspell-fr fr.multi GPL-2+;GPL-2+
de wngerman ngerman aspell-de de-neu.multi GPL-2+;GPL-2+
it witalian italian aspell-it it.multi GPL-3+;GPL-3+
es wspanish spanish aspell-es es.multi public-domain;GPL-2
nl wdutch dutch aspell-nl nl.multi BSD-3-clause-or-CC-BY-3.0;BSD-3-clause-or-CC-BY-3.0
pt wportuguese portuguese aspell-pt-pt pt_PT.multi GPL-2+-or-LGPL-2.1+-or-MPL-1.1;GPL-2+-or-LGPL-2.1+-or-MPL-1.1
'
langs=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

while read -r lang dpkg dfile apkg multi licenses; do
  [ -n "$lang" ] || continue
  if [ ${#langs[@]} -gt 0 ] && [[ ! " ${langs[*]} " == *" $lang "* ]]; then continue; fi
  (cd "$work" && apt-get download "$dpkg" "$apkg" >/dev/null)
  rm -rf "raw/$lang/dict" "raw/$lang/aspell" "raw/$lang/licenses"
  mkdir -p "raw/$lang/dict" "raw/$lang/aspell" "raw/$lang/licenses"
  sources="raw/$lang/SOURCES"
  {
    echo "# Raw sources for '$lang', copied unchanged from Debian packages by scripts/import-debian-raw.sh."
    echo "# Each package's copyright file is in licenses/."
    echo "# path	debian-package	version	license	sha256"
  } > "$sources"
  for pkg in "$dpkg" "$apkg"; do
    deb=$(ls "$work"/"${pkg}"_*.deb)
    version=$(dpkg-deb -f "$deb" Version)
    rm -rf "$work/x" && dpkg-deb -x "$deb" "$work/x"
    cp "$work/x/usr/share/doc/$pkg/copyright" "raw/$lang/licenses/$pkg.copyright"
    if [ "$pkg" = "$dpkg" ]; then
      cp "$work/x/usr/share/dict/$dfile" "raw/$lang/dict/"
      license=${licenses%%;*}
    else
      find "$work/x" \( -name '*.multi' -o -name '*.cwl.gz' -o -name '*.dat' \) \
        ! -name '*_phonet.dat' ! -name '*_repl.dat' -exec cp {} "raw/$lang/aspell/" \;
      license=${licenses##*;}
    fi
    dir=$([ "$pkg" = "$dpkg" ] && echo dict || echo aspell)
    for f in $(cd "raw/$lang" && ls "$dir" | sort); do
      printf '%s\t%s\t%s\t%s\t%s\n' "$dir/$f" "$pkg" "$version" "$license" \
        "$(sha256sum "raw/$lang/$dir/$f" | cut -d' ' -f1)" >> "$sources"
    done
  done
  echo "raw/$lang: top-level aspell dictionary $multi" >&2
done <<< "$table"
