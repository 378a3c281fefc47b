#!/usr/bin/env bash
# CI stand-in for `docker build` (CI has no Docker engine): checks the Dockerfile and the scripts
# its RUN steps call (and runs the build stage's CMake configure for real, into a scratch dir),
# that the runtime package list covers every shared library `outpost` loads, and that
# `cmake --install` stages what the runtime stage copies. One check per ctest test.
#
# usage: docker_check.sh dockerfile|scripts|libraries|install --source DIR
#            [--build DIR] [--binary FILE] [--sanitizer-runtime]
# ok() always succeeds, so `test && ok ... || fail ...` is a plain if-else here.
# shellcheck disable=SC2015,SC2013
set -euo pipefail

check=${1:?check name}
shift
source_dir=""
build_dir=""
binary=""
sanitizer_runtime=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --source) source_dir=$2; shift ;;
        --build) build_dir=$2; shift ;;
        --binary) binary=$2; shift ;;
        --sanitizer-runtime) sanitizer_runtime=1 ;;
        *) echo "docker_check: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift
done
[[ -n $binary ]] && binary=$(realpath -m "$binary")
[[ -n $build_dir ]] && build_dir=$(realpath -m "$build_dir")
cd "${source_dir:?--source is required}"

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
ok() { echo "ok: $*"; }
finish() {
    if [[ $failures -gt 0 ]]; then
        echo "$check: $failures problem(s)" >&2
        exit 1
    fi
    echo "$check: all checks passed"
}

# The Dockerfile as logical instructions: comments dropped, continuation lines joined.
dockerfile_instructions() {
    sed -e '/^[[:space:]]*#/d' Dockerfile | sed -e ':a' -e '/\\$/{N;s/\\\n[[:space:]]*/ /;ba' -e '}' |
        sed -e '/^[[:space:]]*$/d'
}
# Instructions of the last stage (after the last FROM).
last_stage() {
    dockerfile_instructions | awk '/^FROM /{buf=""} {buf = buf $0 "\n"} END{printf "%s", buf}'
}
# The package names in deploy/runtime-packages.txt.
runtime_packages() {
    sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' deploy/runtime-packages.txt
}
# The value of `readonly OUTPOST_UID=...` in runtime-setup.sh.
setup_uid() { sed -n 's/^readonly OUTPOST_UID=\([0-9]*\)$/\1/p' deploy/docker/runtime-setup.sh; }
# The --prefix the Dockerfile passes to build.sh.
docker_prefix() {
    dockerfile_instructions | sed -n 's|^RUN .*deploy/docker/build\.sh.*--prefix \([^ ]*\).*|\1|p'
}
# The port of health.listen in the example config (the default).
default_health_port() {
    sed -n '/^health:/,/^[^ ]/s/^  listen: *"[^"]*:\([0-9]*\)".*/\1/p' config/config.example.yml
}

check_dockerfile() {
    [[ -f Dockerfile ]] || { fail "no Dockerfile"; return; }
    local froms bad
    froms=$(dockerfile_instructions | grep -c '^FROM ' || true)
    [[ $froms -ge 2 ]] && ok "multi-stage ($froms stages)" || fail "expected a build and a runtime stage, found $froms FROM lines"
    bad=$(dockerfile_instructions | grep '^FROM ' |
        grep -Ev '^FROM (--platform=[^ ]+ )?debian:bookworm(-slim)?(@sha256:[0-9a-f]+)?( AS [a-z0-9_-]+)?$' || true)
    [[ -z $bad ]] && ok "every FROM is debian:bookworm(-slim)" || fail "FROM not on debian:bookworm: $bad"

    local stage user uid
    stage=$(last_stage)
    user=$(grep '^USER ' <<<"$stage" | tail -1 | awk '{print $2}')
    uid=${user%%:*}
    if [[ -z $user ]]; then
        fail "the runtime stage has no USER (it would run as root)"
    elif [[ $uid == root || $uid == 0 ]]; then
        fail "the runtime stage runs as root ($user)"
    elif [[ $uid != "$(setup_uid)" ]]; then
        fail "USER $user is not the uid runtime-setup.sh creates ($(setup_uid))"
    else
        ok "runs as non-root uid $uid, created by runtime-setup.sh"
    fi

    grep -q '^HEALTHCHECK .*CMD \[ *"outpost", *"healthcheck".*/healthz' <<<"$stage" &&
        ok "HEALTHCHECK runs outpost healthcheck on /healthz" ||
        fail "no HEALTHCHECK calling outpost healthcheck on /healthz"
    grep -qx 'ENTRYPOINT \["outpost"\]' <<<"$stage" && ok 'ENTRYPOINT ["outpost"]' ||
        fail 'ENTRYPOINT must be ["outpost"]'
    grep -qx 'CMD \["run", "--config", "/config/config.yml"\]' <<<"$stage" &&
        ok "CMD run --config /config/config.yml" || fail 'CMD must be ["run", "--config", "/config/config.yml"]'
    local port
    port=$(default_health_port)
    grep -qx "EXPOSE $port" <<<"$stage" && ok "EXPOSE $port (health.listen's default port)" ||
        fail "EXPOSE $port missing (the default health.listen port)"
    grep -q "healthcheck.*127.0.0.1:$port/healthz" <<<"$stage" ||
        fail "the HEALTHCHECK does not ask port $port"
    grep -qx 'STOPSIGNAL SIGTERM' <<<"$stage" && ok "STOPSIGNAL SIGTERM" || fail "STOPSIGNAL SIGTERM missing"

    # Every script a RUN step calls exists and is executable (COPY keeps the mode).
    local run_line script repo_path
    while IFS= read -r run_line; do
        for script in $(grep -oE '[^ "]*deploy/[^ "]*\.sh' <<<"$run_line"); do
            repo_path=${script#/tmp/}  # runtime stage: COPY deploy/x /tmp/deploy/x
            repo_path=${repo_path#/src/}
            if [[ ! -f $repo_path ]]; then
                fail "RUN calls $script, but $repo_path does not exist"
            elif [[ ! -x $repo_path ]]; then
                fail "RUN calls $script, but $repo_path is not executable"
            elif git ls-files --error-unmatch "$repo_path" >/dev/null 2>&1 &&
                [[ $(git ls-files -s "$repo_path" | awk '{print $1}') != 100755 ]]; then
                fail "$repo_path is not executable in git (git update-index --chmod=+x)"
            else
                ok "RUN calls $repo_path (exists, executable)"
            fi
        done
    done < <(dockerfile_instructions | grep '^RUN ')
    # RUN steps run only our scripts, so CI covers every one of them.
    local unscripted
    unscripted=$(dockerfile_instructions | grep '^RUN ' | grep -v 'deploy/docker/[a-z-]*\.sh' || true)
    [[ -z $unscripted ]] && ok "every RUN step is a deploy/docker script" ||
        fail "RUN step not done by a script CI runs: $unscripted"

    # COPY sources from the build context exist and are not excluded by .dockerignore.
    local src
    while read -r src; do
        [[ -e $src ]] || fail "COPY source $src does not exist"
        grep -qxF "$src" .dockerignore && fail ".dockerignore excludes $src, which the Dockerfile copies"
    done < <(dockerfile_instructions | grep '^COPY ' | grep -v -- '--from=' | awk '{for (i = 2; i < NF; i++) print $i}')
    for ignored in .git build; do
        grep -qx "$ignored" .dockerignore && ok ".dockerignore keeps $ignored out" ||
            fail ".dockerignore must exclude $ignored"
    done
}

# Runs the build stage's configure step (the `cmake --preset` line of build.sh's plan) for real,
# configure only, into a scratch binary dir (-B overrides the preset's build/<preset>): CI never
# otherwise configures tests off with a portable -march. The generated build must have `outpost`
# and no test target, compile with that -march, and use every variable the preset and the line
# set (a misspelt option name is "not used by the project").
configure_build_stage() {
    local plan=$1 preset=$2 line march out targets name value
    line=$(grep -E "^\+ cmake --preset $preset( |$)" <<<"$plan" | head -1)
    [[ -n $line ]] || { fail "build.sh's plan has no 'cmake --preset $preset' line"; return; }
    march=$(sed -n 's/.* -DOUTPOST_MARCH=\([^ ]*\).*/\1/p' <<<"$line")
    local -a configure
    read -ra configure <<<"${line#+ }"
    configure_dir=$(mktemp -d)  # global, for the EXIT trap
    trap 'rm -rf "$configure_dir"' EXIT
    if out=$("${configure[@]}" -B "$configure_dir" 2>&1); then
        ok "the build stage's '${line#+ }' configures (into a scratch dir)"
    else
        echo "$out"
        fail "the build stage's '${line#+ }' does not configure"
        rm -rf "$configure_dir"
        return
    fi
    if grep -q 'Manually-specified variables were not used' <<<"$out"; then
        fail "the project ignores variables the build stage sets: $(sed -n '/not used by the project/,/^-- /p' <<<"$out" | sed -n 's/^    //p' | tr '\n' ' ')"
    else
        ok "the project uses every variable the build stage sets"
    fi
    # The preset's variables, as cmake printed them, are in the cache.
    local preset_vars=0
    while IFS='=' read -r name value; do
        preset_vars=$((preset_vars + 1))
        awk -v want="$name=$value" '{ entry = $0; sub(/:[A-Z]+=/, "=", entry) } entry == want { found = 1 }
            END { exit !found }' "$configure_dir/CMakeCache.txt" ||
            fail "preset variable $name=$value is not in the build stage's cache"
    done < <(sed -n '/^Preset CMake variables:/,/^--/s/^  \([A-Za-z0-9_]*\)\(:[A-Z]*\)\{0,1\}="\(.*\)"$/\1=\3/p' <<<"$out")
    [[ $preset_vars -gt 0 ]] && ok "the cache holds the $preset_vars variable(s) of preset '$preset'" ||
        fail "cmake printed no variables of preset '$preset'"
    grep -qx 'OUTPOST_BUILD_TESTS:BOOL=OFF' "$configure_dir/CMakeCache.txt" ||
        fail "the build stage's cache does not have OUTPOST_BUILD_TESTS=OFF"
    targets=$(ninja -C "$configure_dir" -t targets all)
    grep -q '^outpost: ' <<<"$targets" && ok "the build stage's build has an outpost target" ||
        fail "the build stage's build has no outpost target"
    local tests
    tests=$(grep -E '^(tests/[^:]*|[^:]*_test|[^:]*gtest[^:]*|test): ' <<<"$targets" | cut -d: -f1 || true)
    [[ -z $tests ]] && ok "the build stage's build has no test targets" ||
        fail "the build stage's build has $(wc -l <<<"$tests") test targets, e.g. $(grep -E '^tests/.*_test$' <<<"$tests" | head -3 | tr '\n' ' ' || true)"
    local commands compiles with_march
    commands=$(ninja -C "$configure_dir" -t commands outpost)
    compiles=$(grep -c -- ' -c ' <<<"$commands" || true)
    with_march=$(grep -- ' -c ' <<<"$commands" | grep -c -- " -march=$march " || true)
    [[ -n $march && $compiles -gt 0 && $with_march -eq $compiles ]] &&
        ok "all $compiles compile commands of outpost use -march=$march" ||
        fail "$with_march of $compiles compile commands of outpost use -march=${march:-<none in the configure line>}"
    rm -rf "$configure_dir"
}

check_scripts() {
    local script
    for script in deploy/docker/build.sh deploy/docker/runtime-setup.sh deploy/install-deps.sh; do
        bash -n "$script" && ok "$script parses" || fail "$script has a syntax error"
    done
    if command -v shellcheck >/dev/null; then
        shellcheck deploy/docker/*.sh && ok "shellcheck" || fail "shellcheck found problems"
    fi

    # The build stage: same install script as `make test`, the preset `make test` builds.
    local plan make_preset prefix
    plan=$(OUTPOST_MARCH='' deploy/docker/build.sh --dry-run --prefix "$(docker_prefix)" --jobs 2)
    echo "$plan"
    make_preset=$(sed -n '/^build:/,/^$/s/.*cmake --preset \([a-z]*\).*/\1/p' Makefile | head -1)
    grep -q 'bash deploy/install-deps.sh' Makefile || fail "the Makefile no longer runs deploy/install-deps.sh"
    [[ -n $make_preset ]] || fail "cannot find the preset in the Makefile's build target"
    grep -qx '+ bash deploy/install-deps.sh --build-only' <<<"$plan" &&
        ok "build stage runs deploy/install-deps.sh, as make test does, without the test packages" ||
        fail "build.sh does not run deploy/install-deps.sh --build-only"
    grep -qE "^\+ cmake --preset $make_preset -DOUTPOST_BUILD_TESTS=OFF -DOUTPOST_MARCH=x86-64-v[0-9]$" <<<"$plan" &&
        ok "configures preset '$make_preset' (as make test) with tests off and a portable -march" ||
        fail "build.sh must configure 'cmake --preset $make_preset -DOUTPOST_BUILD_TESTS=OFF -DOUTPOST_MARCH=x86-64-vN'"
    grep -q '"name": "'"$make_preset"'"' CMakePresets.json || fail "preset $make_preset missing from CMakePresets.json"
    # shellcheck disable=SC2016 # the preset's own ${...} syntax
    grep -q '"binaryDir": "${sourceDir}/build/${presetName}"' CMakePresets.json ||
        fail "CMakePresets.json's binaryDir is no longer build/<preset>, which build.sh installs from"
    grep -qx "+ cmake --build --preset $make_preset --target outpost -j 2" <<<"$plan" && ok "builds only outpost" ||
        fail "build.sh must build the outpost target of preset $make_preset"
    prefix=$(docker_prefix)
    [[ -n $prefix ]] || fail "the Dockerfile does not pass --prefix to build.sh"
    grep -qx "+ cmake --install build/$make_preset --prefix $prefix --strip" <<<"$plan" &&
        ok "installs to $prefix, where the runtime stage copies from" || fail "build.sh does not install to $prefix"
    local copied
    for copied in $(dockerfile_instructions | grep '^COPY --from=build ' | awk '{print $3}'); do
        [[ $copied == "$prefix"/* ]] || fail "the runtime stage copies $copied, outside the install prefix $prefix"
    done
    if OUTPOST_MARCH=native deploy/docker/build.sh --dry-run >/dev/null 2>&1; then
        fail "build.sh accepts OUTPOST_MARCH=native"
    else
        ok "build.sh refuses -march=native"
    fi
    grep -qE '^ARG OUTPOST_MARCH=x86-64-v[0-9]$' <(dockerfile_instructions) || fail "the Dockerfile's OUTPOST_MARCH default is not x86-64-vN"
    configure_build_stage "$plan" "$make_preset"

    # The runtime stage: exactly the packages of the list, the user of the Dockerfile's USER.
    local setup expected
    setup=$(deploy/docker/runtime-setup.sh --dry-run)
    echo "$setup"
    expected="+ apt-get install -y --no-install-recommends $(runtime_packages | tr '\n' ' ')"
    grep -qxF "${expected% }" <<<"$setup" && ok "runtime stage installs exactly deploy/runtime-packages.txt" ||
        fail "runtime-setup.sh does not install exactly the runtime package list"
    # apt's leftovers go in the same RUN (one layer) as the install, whatever the base's apt hooks.
    local install_at clean_at lists_at plain
    plain=${setup//\\/}  # the plan's lines without printf %q's backslashes
    install_at=$(grep -n '^+ apt-get install ' <<<"$plain" | head -1 | cut -d: -f1 || true)
    clean_at=$(grep -nx '+ apt-get clean' <<<"$plain" | head -1 | cut -d: -f1 || true)
    lists_at=$(grep -n '^+ sh -c rm -rf .*/var/lib/apt/lists/\*' <<<"$plain" | head -1 | cut -d: -f1 || true)
    [[ -n $install_at && -n $clean_at && -n $lists_at && $clean_at -gt $install_at && $lists_at -gt $install_at ]] &&
        ok "runtime-setup.sh runs apt-get clean and removes the package lists after the install" ||
        fail "runtime-setup.sh must run 'apt-get clean' and remove /var/lib/apt/lists/* after apt-get install"
    [[ $(dockerfile_instructions | grep -c '^RUN .*runtime-setup\.sh') -eq 1 ]] &&
        ok "the Dockerfile runs runtime-setup.sh in one RUN (one layer)" ||
        fail "the Dockerfile must run runtime-setup.sh in exactly one RUN step"
    grep -q "^+ useradd --system --uid $(setup_uid) " <<<"$setup" && ok "creates user uid $(setup_uid)" ||
        fail "runtime-setup.sh does not create uid $(setup_uid)"
    grep -q '^VOLUME \["/data/pgn"\]' <(last_stage) && grep -q '^+ install -d .* /data/pgn$' <<<"$setup" &&
        ok "/data/pgn created for the VOLUME" || fail "the /data/pgn VOLUME is not created by runtime-setup.sh"
}

# Which package owns each library file: one `dpkg -S` for all of them, asked with the path, its
# real path and the /lib <-> /usr/lib spellings (usrmerge: dpkg records one, ldd may print the
# other). Fills owners[path].
declare -A owners=()
find_owners() {
    local -A spelling_of=()
    local path real candidate pkgs file line
    for path in "$@"; do
        real=$(readlink -f "$path")
        for candidate in "$path" "$real" "${path#/usr}" "/usr$path" "${real#/usr}" "/usr$real"; do
            spelling_of[$candidate]=$path
        done
    done
    while IFS= read -r line; do
        pkgs=${line%%: /*}
        file=/${line#*: /}
        path=${spelling_of[$file]:-}
        if [[ -n $path && -z ${owners[$path]:-} ]]; then owners[$path]=${pkgs%%:*}; fi
    done < <(dpkg -S "${!spelling_of[@]}" 2>/dev/null || true)
}

# The installed packages a set of packages depends on, recursively (first installed alternative).
# One dpkg-query for the whole database; the walk happens in memory.
declare -A installed_deps=()
load_package_database() {
    [[ ${#installed_deps[@]} -gt 0 ]] && return
    local name status deps
    while IFS='|' read -r name status deps; do
        [[ $status == "install ok installed" ]] && installed_deps[${name%%:*}]=$deps
    done < <(dpkg-query -W -f='${Package}|${Status}|${Pre-Depends}, ${Depends}\n')
}
dependency_closure() {
    load_package_database
    local -A seen=()
    local queue=("$@") pkg alt name
    while [[ ${#queue[@]} -gt 0 ]]; do
        pkg=${queue[0]}
        queue=("${queue[@]:1}")
        [[ -n ${seen[$pkg]:-} ]] && continue
        seen[$pkg]=1
        echo "$pkg"
        while IFS= read -r alt; do
            for name in $(tr '|' '\n' <<<"$alt" | sed -e 's/(.*)//' -e 's/:any//' -e 's/[[:space:]]//g'); do
                if [[ -n ${installed_deps[$name]+x} ]]; then
                    queue+=("$name")
                    break
                fi
            done
        done < <(tr ',' '\n' <<<"${installed_deps[$pkg]:-}" | sed -e '/^[[:space:]]*$/d')
    done
}

check_libraries() {
    [[ -x $binary ]] || { fail "no outpost binary at '$binary'"; return; }
    if ! command -v dpkg >/dev/null || ! command -v ldd >/dev/null; then
        echo "SKIP: needs dpkg and ldd (a Debian machine)"
        exit 77
    fi
    local list pkg missing=0
    list=$(runtime_packages)
    for pkg in $list; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            fail "runtime package $pkg is not installed here; is the name right for Debian 12?"
            missing=1
        fi
    done
    [[ $missing -eq 0 ]] || return

    # debian:bookworm-slim holds every Priority: required package, apt among them, so apt and
    # everything it depends on (libc6, libstdc++6, libgcc-s1, ...) come with the base image.
    local base runtime
    base=$(dependency_closure apt | sort -u)
    for pkg in libc6 libgcc-s1 libstdc++6; do
        grep -qx "$pkg" <<<"$base" && ok "$pkg is in debian:bookworm-slim (apt needs it)" ||
            fail "$pkg is not in apt's dependencies; add it to deploy/runtime-packages.txt"
    done
    # shellcheck disable=SC2086
    runtime=$(dependency_closure $list | sort -u)

    local ldd_out needed lib path owner
    ldd_out=$(ldd "$binary")
    if grep -q 'not found' <<<"$ldd_out"; then
        fail "ldd: $(grep 'not found' <<<"$ldd_out" | tr '\n' ' ')"
    fi
    needed=$(objdump -p "$binary" | awk '$1 == "NEEDED" {print $2}')
    # shellcheck disable=SC2046
    find_owners $(awk '$2 == "=>" && $3 ~ /^\// {print $3}' <<<"$ldd_out")
    while read -r lib path; do
        [[ -z $path ]] && continue
        owner=${owners[$path]:-}
        [[ -n $owner ]] || { fail "$lib ($path) belongs to no Debian package"; continue; }
        if [[ $sanitizer_runtime -eq 1 && $lib =~ ^lib(asan|ubsan|tsan|lsan) ]]; then
            ok "$lib ($owner): sanitizer runtime, not part of the image"
        elif grep -qx "$lib" <<<"$needed"; then
            # Libraries outpost links directly: named in the list, or part of the base image.
            if grep -qx "$owner" <<<"$list"; then
                ok "$lib (needed) from $owner, in the runtime list"
            elif grep -qx "$owner" <<<"$base"; then
                ok "$lib (needed) from $owner, in debian:bookworm-slim"
            else
                fail "$lib (needed by outpost) comes from $owner: add it to deploy/runtime-packages.txt"
            fi
        elif grep -qx "$owner" <<<"$runtime" || grep -qx "$owner" <<<"$base"; then
            ok "$lib from $owner, a dependency apt installs with the list"
        else
            fail "$lib comes from $owner, which neither the list nor the base image pulls in"
        fi
    done < <(awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' <<<"$ldd_out")
}

check_install() {
    [[ -d $build_dir ]] || { fail "no build directory '$build_dir'"; return; }
    local stage  # also kept in install_stage for the EXIT trap, which runs after return
    stage=$(mktemp -d)
    install_stage=$stage
    trap 'rm -rf "$install_stage"' EXIT
    cmake --install "$build_dir" --prefix "$stage/usr/local" >/dev/null || { fail "cmake --install failed"; return; }
    local f
    for f in bin/outpost share/outpost/config.example.yml lib/systemd/system/outpost.service \
        lib/sysusers.d/outpost.conf; do
        [[ -e $stage/usr/local/$f ]] && ok "installs $f" || fail "cmake --install did not install $f"
    done
    grep -q "^ExecStart=$stage/usr/local/bin/outpost run --config /etc/outpost/config.yml$" \
        "$stage/usr/local/lib/systemd/system/outpost.service" && ok "installed unit runs the installed binary" ||
        fail "the installed unit's ExecStart does not name $stage/usr/local/bin/outpost"
    cmp -s config/config.example.yml "$stage/usr/local/share/outpost/config.example.yml" ||
        fail "the installed example config differs from config/config.example.yml"

    # What the runtime stage copies from the build stage's prefix is what the install stages.
    local prefix copied
    prefix=$(docker_prefix)
    for copied in $(dockerfile_instructions | grep '^COPY --from=build ' | awk '{print $3}'); do
        [[ -e $stage/usr/local/${copied#"$prefix"/} ]] && ok "the image's COPY --from=build $copied is installed" ||
            fail "the runtime stage copies $copied, which cmake --install does not produce"
    done

    # The runtime steps of the image, on the installed binary.
    local bin=$stage/usr/local/bin/outpost
    "$bin" --version && ok "installed outpost --version" || fail "installed outpost --version failed"
    LICHESS_BOT_TOKEN=lip_ci_placeholder "$bin" check-config "$stage/usr/local/share/outpost/config.example.yml" >/dev/null &&
        ok "installed outpost check-config on the installed example" || fail "check-config of the installed example failed"
    if "$bin" healthcheck --quiet --timeout-ms 2000 --url http://127.0.0.1:9/healthz; then
        fail "outpost healthcheck reported a closed port as healthy"
    else
        ok "outpost healthcheck fails (exit 1) when nothing listens"
    fi
}

case "$check" in
    dockerfile) check_dockerfile ;;
    scripts) check_scripts ;;
    libraries) check_libraries ;;
    install) check_install ;;
    *) echo "docker_check: unknown check '$check'" >&2; exit 2 ;;
esac
finish
