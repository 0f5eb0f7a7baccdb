#!/usr/bin/env bash
# Maintainer tool, not part of the build: refresh raw/<lang>/ from Debian's packages and rewrite
# raw/<lang>/SOURCES. Needs apt-get (Debian/Ubuntu); the build itself never runs this.
#   usage: scripts/import-debian-raw.sh [LANG...]      (default: the seven of the default build)
# Languages outside the default build (ca, pl) are imported only when named.
set -euo pipefail
cd "$(dirname "$0")/.."

# lang  dict-package  dict-file  aspell-package  top-level .multi/.alias  hunspell-package
#       .dic/.aff name  licenses (dict;aspell;hunspell); "-" for a package that does not exist
#       (Debian has no Catalan word list: its dict columns are "-")
table='
en wamerican american-english aspell-en en.multi hunspell-en-us en_US SCOWL-permissive;SCOWL-permissive;SCOWL-permissive
fr wfrench french aspell-fr fr.multi hunspell-fr-comprehensive fr GPL-2+;GPL-2+;MPL-2.0
de wngerman ngerman aspell-de de-neu.multi hunspell-de-de de_DE GPL-2+;GPL-2+;GPL-2+
it witalian italian aspell-it it.multi hunspell-it it_IT GPL-3+;GPL-3+;GPL-3
es wspanish spanish aspell-es es.multi hunspell-es es_ES public-domain;GPL-2;GPL-3+-or-LGPL-3+-or-MPL-1.1+
nl wdutch dutch aspell-nl nl.multi hunspell-nl nl BSD-3-clause-or-CC-BY-3.0;BSD-3-clause-or-CC-BY-3.0;BSD-3-clause-or-CC-BY-3.0
pt wportuguese portuguese aspell-pt-pt pt_PT.multi hunspell-pt-pt pt_PT GPL-2+-or-LGPL-2.1+-or-MPL-1.1;GPL-2+-or-LGPL-2.1+-or-MPL-1.1;GPL-2-or-LGPL-2.1-or-MPL-1.1
ca - - aspell-ca ca.alias hunspell-ca ca GPL-2+;GPL-2+;GPL-2+-and-LGPL-2.1+
pl wpolish polish aspell-pl pl.multi hunspell-pl pl_PL GPL-2-or-LGPL-2.1-or-MPL-1.1-or-Apache-2.0-or-CC-BY-4.0;CC-BY-SA-1.0;GPL-or-LGPL-or-MPL-or-Apache-2.0-or-CC-SA-1.0
'
default_langs=(en fr de it es nl pt)
# French: hunspell-fr-comprehensive ("toutes variantes") accepts both the traditional and the
# 1990-reform spellings, as French Scrabble's official list does; -classical and -revised keep
# only some of them.
langs=("$@")
[ ${#langs[@]} -gt 0 ] || langs=("${default_langs[@]}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

while read -r lang dpkg dfile apkg multi hpkg hname licenses; do
  [ -n "$lang" ] || continue
  if [[ ! " ${langs[*]} " == *" $lang "* ]]; then continue; fi
  packages=()
  for pkg in "$dpkg" "$apkg" "$hpkg"; do [ "$pkg" = - ] || packages+=("$pkg"); done
  (cd "$work" && apt-get download "${packages[@]}" >/dev/null)
  sources="raw/$lang/SOURCES"
  # Lines of files this script does not import (curation/, enable2k/ …) are kept as they are,
  # and so are their licence texts.
  kept=$(awk -F'\t' '!/^#/ && NF == 5 && $1 !~ /^(dict|aspell|hunspell)\//' "$sources" 2>/dev/null || true)
  for pkg in "${packages[@]}"; do rm -f "raw/$lang/licenses/$pkg.copyright"; done
  rm -rf "raw/$lang/dict" "raw/$lang/aspell" "raw/$lang/hunspell"
  mkdir -p "raw/$lang/aspell" "raw/$lang/hunspell" "raw/$lang/licenses"
  [ "$dpkg" = - ] || mkdir -p "raw/$lang/dict"
  {
    echo "# Raw sources for '$lang', copied unchanged from Debian packages by scripts/import-debian-raw.sh."
    echo "# Each package's copyright file is in licenses/."
    echo "# path	debian-package	version	license	sha256"
  } > "$sources"
  for pkg in "${packages[@]}"; do
    deb=$(ls "$work"/"${pkg}"_*.deb)
    version=$(dpkg-deb -f "$deb" Version)
    rm -rf "$work/x" && dpkg-deb -x "$deb" "$work/x"
    cp "$work/x/usr/share/doc/$pkg/copyright" "raw/$lang/licenses/$pkg.copyright"
    if [ "$pkg" = "$dpkg" ]; then
      dir=dict
      cp "$work/x/usr/share/dict/$dfile" "raw/$lang/dict/"
      license=${licenses%%;*}
    elif [ "$pkg" = "$apkg" ]; then
      dir=aspell
      # .alias files are read as .multi ones (aspell-ca's top level is ca.alias)
      find "$work/x" \( -name '*.multi' -o -name '*.alias' -o -name '*.cwl.gz' -o -name '*.dat' \) \
        ! -name '*_phonet.dat' ! -name '*_repl.dat' -exec cp {} "raw/$lang/aspell/" \;
      license=${licenses#*;} && license=${license%%;*}
    else
      dir=hunspell
      cp -L "$work/x/usr/share/hunspell/$hname.dic" "$work/x/usr/share/hunspell/$hname.aff" \
        "raw/$lang/hunspell/"
      license=${licenses##*;}
    fi
    for f in $(cd "raw/$lang" && ls "$dir" | sort); do
      printf '%s\t%s\t%s\t%s\t%s\n' "$dir/$f" "$pkg" "$version" "$license" \
        "$(sha256sum "raw/$lang/$dir/$f" | cut -d' ' -f1)" >> "$sources"
    done
  done
  [ -z "$kept" ] || printf '%s\n' "$kept" >> "$sources"
  echo "raw/$lang: top-level aspell dictionary $multi, hunspell dictionary $hname.dic" >&2
done <<< "$table"
