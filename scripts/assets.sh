#!/usr/bin/env bash
# Rebuilds static/vendor/ — the third-party front-end files of the web console —
# from the npm packages pinned in static/package-lock.json, and writes
# static/vendor/MANIFEST.json (version, license, files with sha256) and
# static/vendor/README.md (what to include in a page, in which order).
#
# The result is committed, so `make run` and `go build` need no Node; run this
# (make assets) only after changing static/package.json.
#
# Deterministic: vendor/ is wiped and recreated from the lock file; files the
# packages ship unminified are minified with the pinned esbuild.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
static=$root/static
nm=$static/node_modules
out=$static/vendor

# Install scripts of the packages are never run: we only copy their files
# (esbuild finds its platform binary through its optional dependency).
(cd "$static" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)

# What is taken from each package, in the order a page includes them.
# Columns: package, role, source (in node_modules/<package>), target (in vendor/<package>).
# Roles: css / js      included by every page that uses the package, in this order;
#        css-opt/js-opt included only by the pages that need it (see README);
#        asset          loaded by a css file (fonts, images);
#        license        the package's license text;
#        license-readme the "License" section of a README, for packages that ship no
#                       LICENSE file.
# A target ending in .min.js / .min.css whose source is not minified is minified.
spec='
jquery                    js        dist/jquery.min.js                             jquery.min.js
jquery                    license   LICENSE.txt                                    LICENSE.txt
bootstrap                 css       dist/css/bootstrap.min.css                     css/bootstrap.min.css
bootstrap                 js        dist/js/bootstrap.min.js                       js/bootstrap.min.js
bootstrap                 asset     dist/fonts/glyphicons-halflings-regular.woff2  fonts/glyphicons-halflings-regular.woff2
bootstrap                 asset     dist/fonts/glyphicons-halflings-regular.woff   fonts/glyphicons-halflings-regular.woff
bootstrap                 license   LICENSE                                        LICENSE
font-awesome              css       css/font-awesome.min.css                       css/font-awesome.min.css
font-awesome              asset     fonts/fontawesome-webfont.woff2                fonts/fontawesome-webfont.woff2
font-awesome              asset     fonts/fontawesome-webfont.woff                 fonts/fontawesome-webfont.woff
font-awesome              license-readme README.md                                 LICENSE.md
admin-lte                 css       dist/css/AdminLTE.min.css                      css/AdminLTE.min.css
admin-lte                 css       dist/css/skins/skin-blue.min.css               css/skins/skin-blue.min.css
admin-lte                 css-opt   dist/css/skins/_all-skins.min.css              css/skins/_all-skins.min.css
admin-lte                 js        dist/js/adminlte.min.js                        js/adminlte.min.js
admin-lte                 license   LICENSE                                        LICENSE
jquery-validation         js        dist/jquery.validate.min.js                    jquery.validate.min.js
jquery-validation         license   LICENSE.md                                     LICENSE.md
icheck                    css-opt   skins/square/blue.css                          skins/square/blue.min.css
icheck                    asset     skins/square/blue.png                          skins/square/blue.png
icheck                    asset     skins/square/blue@2x.png                       skins/square/blue@2x.png
icheck                    js-opt    icheck.min.js                                  icheck.min.js
icheck                    license-readme README.md                                 LICENSE.md
datatables.net            js-opt    js/jquery.dataTables.min.js                    js/jquery.dataTables.min.js
datatables.net            license   License.txt                                    License.txt
datatables.net-bs         css-opt   css/dataTables.bootstrap.min.css               css/dataTables.bootstrap.min.css
datatables.net-bs         js-opt    js/dataTables.bootstrap.min.js                 js/dataTables.bootstrap.min.js
datatables.net-bs         license   License.txt                                    License.txt
select2                   css-opt   dist/css/select2.min.css                       css/select2.min.css
select2                   js-opt    dist/js/select2.min.js                         js/select2.min.js
select2                   js-opt    dist/js/i18n/zh-CN.js                          js/i18n/zh-CN.min.js
select2                   js-opt    dist/js/i18n/zh-TW.js                          js/i18n/zh-TW.min.js
select2                   license   LICENSE.md                                     LICENSE.md
bootstrap-table           css-opt   dist/bootstrap-table.min.css                   bootstrap-table.min.css
bootstrap-table           js-opt    dist/bootstrap-table.min.js                    bootstrap-table.min.js
bootstrap-table           js-opt    dist/locale/bootstrap-table-en-US.min.js       locale/bootstrap-table-en-US.min.js
bootstrap-table           js-opt    dist/locale/bootstrap-table-zh-CN.min.js       locale/bootstrap-table-zh-CN.min.js
bootstrap-table           js-opt    dist/locale/bootstrap-table-zh-TW.min.js       locale/bootstrap-table-zh-TW.min.js
bootstrap-table           license   LICENSE                                        LICENSE
moment                    js-opt    min/moment.min.js                              moment.min.js
moment                    license   LICENSE                                        LICENSE
bootstrap-daterangepicker css-opt   daterangepicker.css                            daterangepicker.min.css
bootstrap-daterangepicker js-opt    daterangepicker.js                             daterangepicker.min.js
bootstrap-daterangepicker license-readme README.md                                 LICENSE.md
echarts                   js-opt    dist/echarts.common.min.js                     echarts.common.min.js
echarts                   license   LICENSE                                        LICENSE
echarts                   license   NOTICE                                         NOTICE
echarts                   license   licenses/LICENSE-d3                            LICENSE-d3
echarts                   license   ../zrender/LICENSE                             LICENSE-zrender
codemirror                css-opt   lib/codemirror.css                             lib/codemirror.min.css
codemirror                js-opt    lib/codemirror.js                              lib/codemirror.min.js
codemirror                js-opt    mode/clike/clike.js                            mode/clike.min.js
codemirror                js-opt    mode/shell/shell.js                            mode/shell.min.js
codemirror                js-opt    mode/python/python.js                          mode/python.min.js
codemirror                js-opt    mode/php/php.js                                mode/php.min.js
codemirror                js-opt    mode/javascript/javascript.js                  mode/javascript.min.js
codemirror                js-opt    mode/powershell/powershell.js                  mode/powershell.min.js
codemirror                license   LICENSE                                        LICENSE
@dagrejs/dagre            js-opt    dist/dagre.min.js                              dagre.min.js
@dagrejs/dagre            license   LICENSE                                        LICENSE
'

esbuild=$nm/.bin/esbuild
version() { node -p "require(process.argv[1]).packages['node_modules/' + process.argv[2]].version" "$static/package-lock.json" "$1"; }

# minify SRC DST BANNER: esbuild keeps /*! */ and @license comments; the banner
# names package, version and license for sources whose notice is a // comment.
# Targets keep the output runnable where the original ES5 code ran.
minify() {
	case $2 in
	*.js) "$esbuild" "$1" --minify --target=es5 --legal-comments=inline \
		--banner:js="$3" --log-level=error --outfile="$2" ;;
	*.css) "$esbuild" "$1" --minify --target=chrome58,firefox57,safari11,edge16 \
		--legal-comments=inline --banner:css="$3" --log-level=error --outfile="$2" ;;
	esac
}

# readme_license SRC DST: the "License" section of a README (a "## License" or
# an underlined "License" heading) up to the next heading of the same level,
# with LF line ends.
readme_license() {
	{
		printf 'License section of the README.md of the npm package (it ships no LICENSE file).\n\n'
		awk '
			{ sub(/\r$/, "") }
			!on && /^(## )?License$/ { on = 1; print; next }
			on && /^## / { exit }
			on { print }
		' "$1"
	} >"$2"
	grep -q -i 'licen[sc]ed\|MIT License\|Permission is hereby granted' "$2" ||
		{ echo "assets: no license section in $1" >&2; exit 1; }
}

rm -rf "$out"
mkdir -p "$out"
list=$(mktemp)
trap 'rm -f "$list"' EXIT

while read -r pkg role src dst; do
	[ -n "$pkg" ] || continue
	from=$nm/$pkg/$src
	to=$out/$pkg/$dst
	[ -f "$from" ] || { echo "assets: $pkg: missing $src" >&2; exit 1; }
	mkdir -p "$(dirname "$to")"
	ver=$(version "$pkg")
	lic=$(node -p "require(process.argv[1]).license" "$nm/$pkg/package.json")
	case $role:$src:$dst in
	license-readme:*) readme_license "$from" "$to" ;;
	*.min.js:*|*.min.css:*) cp "$from" "$to" ;;
	*:*.min.js|*:*.min.css) minify "$from" "$to" "/*! $pkg $ver | $lic | minified from $src */" ;;
	*) cp "$from" "$to" ;;
	esac
	chmod 0644 "$to"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$pkg" "$ver" "$lic" "$role" "$dst" "$src" >>"$list"
done <<<"$spec"

# MANIFEST.json and README.md from the list (packages in include order).
node "$root/scripts/assets-manifest.js" "$list" "$out"

echo "assets: $(find "$out" -type f | wc -l) files, $(du -sb "$out" | cut -f1) bytes in static/vendor"
