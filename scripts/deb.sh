#!/usr/bin/env bash
# make deb: a Debian package, built with dpkg-deb, of the static release
# binary (.build/release/ics-agenda, linked with --static-swift-stdlib: no
# Swift library is needed where it is installed), the man page and the
# bash, zsh and fish completions. Written to ./ics-agenda_VERSION_ARCH.deb.
set -euo pipefail
cd "$(dirname "$0")/.."

# The version --version prints (Sources/ics-agenda/Commands/Version.swift).
VERSION=$(sed -n 's/^ *static let number = "\(.*\)"$/\1/p' Sources/ics-agenda/Commands/Version.swift)
if [ -z "$VERSION" ]; then echo "deb: no version in Version.swift" >&2; exit 1; fi
ARCH=$(dpkg --print-architecture)
STAGE=.build/deb/root
rm -rf "$STAGE" ics-agenda_*.deb
mkdir -p "$STAGE/DEBIAN"

make --no-print-directory install DESTDIR="$PWD/$STAGE" PREFIX=/usr ZSH_COMPLETIONS=share/zsh/vendor-completions
strip --strip-unneeded "$STAGE/usr/bin/ics-agenda"
gzip -9n "$STAGE/usr/share/man/man1/ics-agenda.1"
install -d "$STAGE/usr/share/doc/ics-agenda"
install -m 644 README.md docs/CONTRACT.md "$STAGE/usr/share/doc/ics-agenda/"
# Debian policy 12.5: what the package carries and under which terms.
install -m 644 scripts/debian-copyright "$STAGE/usr/share/doc/ics-agenda/copyright"

# Who answers for the package: the project by default; whoever publishes a
# package for others sets DEB_MAINTAINER="Name <address>" (README, Install).
MAINTAINER=${DEB_MAINTAINER:-ics-agenda maintainers <ics-agenda@localhost>}

# The libraries the binary is linked to, as Debian names them (dpkg-shlibdeps
# reads a debian/control); tzdata is read at run time.
DEPENDS="libc6, libgcc-s1, libical3, libcurl4, libre2-9, libstdc++6"
if command -v dpkg-shlibdeps >/dev/null; then
    WORK=.build/deb/shlibs
    rm -rf "$WORK" && mkdir -p "$WORK/debian"
    printf 'Source: ics-agenda\n\nPackage: ics-agenda\nArchitecture: any\n' > "$WORK/debian/control"
    found=$(cd "$WORK" && dpkg-shlibdeps -O "../../../$STAGE/usr/bin/ics-agenda" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
    [ -n "$found" ] && DEPENDS=$found
fi

cat > "$STAGE/DEBIAN/control" <<CONTROL
Package: ics-agenda
Version: $VERSION
Architecture: $ARCH
Maintainer: $MAINTAINER
Installed-Size: $(du -sk "$STAGE/usr" | cut -f1)
Depends: $DEPENDS, tzdata
Section: utils
Priority: optional
Description: agenda of iCalendar (.ics) files, grouped by day
 ics-agenda reads iCalendar files, folders of them or standard input and
 prints what is coming as an agenda grouped by day: as text, JSON Lines,
 Markdown, HTML, iCalendar or a template. Recurrences are expanded with
 libical; damaged input is mended or skipped with a warning naming the file
 and the line. Made for the terminal, cron mail, status bars and pipelines.
CONTROL

dpkg-deb --root-owner-group --build "$STAGE" "ics-agenda_${VERSION}_${ARCH}.deb"
