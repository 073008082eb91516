# portdash: the HPy porting dashboard.  One plain Makefile.
#
#   make deps    install build/test dependencies (Debian packages, npm packages)
#   make         build build/portdash
#   make run     build a demo repository (or REPO=GITDIR), ingest it, serve it
#   make test    style check, sanitizer build + unit, ingest, API, install and
#                browser tests
#   make install PREFIX=/usr/local DESTDIR=   binary, dashboard, browser
#                libraries, rules/scopes files, man page, systemd units
#   make bench   analyzer/ingest benchmarks (BENCH_REPO=GITDIR, see doc/benchmarks.md)
#   make bench-sarif   only the SARIF import benchmark (no BENCH_REPO needed;
#                BENCH_SARIF_BEFORE=BINARY measures another build beside it)
#   make bench-api BENCH_REPO=GITDIR   the API against nginx (doc/benchmarks.md)
#   make bench-load BENCH_REPO=GITDIR  warm reads during an ingest
#   make bench-cold BENCH_REPO=GITDIR  cold answers, BENCH_BEFORE=BIN beside
#   make bench-pages BENCH_REPO=GITDIR the file page and overview in Chromium
#   make bench-truth TRUTH_NUMPY=GITDIR TRUTH_KIWI= TRUTH_UJSON= TRUTH_HPY=
#                the measure of truth: hand labels against the file page
#                (doc/truth.md; a variable left empty skips that port)
#   make check   style checks (line length, banned functions, warnings)
#   make clean

# What each Debian package is for: the C libraries and their headers
# (libgit2, libmicrohttpd, jansson, sqlite3, zlib, libsodium; yajl reads
# SARIF uploads as a stream of JSON events, so memory does not grow with
# the log), cmocka and
# libcurl for the unit/API tests, chromium for the browser tests,
# universal-ctags for the function-boundary comparison, clang for the
# fuzzers, time for the benchmarks' peak RSS, nodejs/npm for the browser
# tests and the dashboard's browser libraries (npm packages pinned in
# package.json: Chart.js, marked, DOMPurify, jsdiff, Prism), man-db to
# check the manual page, systemd for
# `systemd-analyze verify` of the units, nginx for the reverse-proxy test.
DEB_PKGS = build-essential pkg-config git libgit2-dev libmicrohttpd-dev \
           libjansson-dev libsqlite3-dev zlib1g-dev libsodium-dev libyajl-dev libcmocka-dev \
           libcurl4-openssl-dev \
           sqlite3 chromium time clang universal-ctags man-db systemd nginx curl
PKGS     = libgit2 libmicrohttpd jansson sqlite3 zlib libsodium yajl
# jq: tests/bench/truth.sh reads the file pages (make bench-truth, and its
# self-test in make test)
DEB_PKGS += jq
# python3-dev: CPython's own headers, from which tools/gen_capi_names.py
# takes the names that are C API (make capi-names; issue 21)
DEB_PKGS += python3-dev
# xxHash: the 128-bit keys of the analyzer's chunk memo (analyze_memo.c);
# on x86 its run-time dispatch too (xxh_x86dispatch.h: AVX2 where the CPU
# has it), which Debian's libxxhash has and a build without DISPATCH=1 lacks
DEB_PKGS += libxxhash-dev
PKGS     += libxxhash
# libzstd: the compressed columns, Zstandard frames (db_compress.c; rows of
# databases from before schema version 20 are zlib's format, read with zlib)
DEB_PKGS += libzstd-dev
PKGS     += libzstd
# OpenSSL's libcrypto: SHA-1 of the answers' ETags (srv_reply.c), about 5 times
# as fast as libgit2's collision-detecting one (the server loaded libcrypto
# already, through libgit2's libssh2)
DEB_PKGS += libssl-dev
PKGS     += libcrypto
# playwright-core 1.61 is the newest release that runs on Debian 12's
# Node.js 18 (1.62 and later need Node 20); `make deps` checks it.
NODE_MIN = 18

CC      ?= cc
OPT     ?= -O2

# Targets that only install, test through a sub-make, or clean must not
# need the libraries yet (a fresh machine has no pkg-config before deps).
NOPKG_GOALS = deps clean test run bench bench-sarif bench-api bench-load bench-cold bench-pages bench-truth check install \
              help stress capi-names hpy-api fix-calls
ifneq ($(filter-out $(NOPKG_GOALS),$(or $(MAKECMDGOALS),all)),)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
ifneq ($(.SHELLSTATUS),0)
$(error pkg-config cannot find: $(shell pkg-config --print-errors --exists $(PKGS) 2>&1 || \
          echo pkg-config itself) -- run 'make deps')
endif
# libmicrohttpd is opened by the server when it starts (server/srv_mhd.c),
# not linked: its dependencies cost every command's start-up.
PKG_LIBS := $(filter-out -lmicrohttpd,$(shell pkg-config --libs $(PKGS)))
endif

CFLAGS  += -std=c11 -D_GNU_SOURCE -g $(OPT) -Wall -Wextra -Wshadow -Wno-unused-parameter $(WERROR) \
           -MMD -MP -Icommon -Iingest -Idb -Iquery -Iserver -Igate -Isarif -Ireport $(PKG_CFLAGS)
LDLIBS  += $(PKG_LIBS) -lpthread -lm

# SAN=1 builds into build-san/ with AddressSanitizer + UBSan (used by make test).
ifeq ($(SAN),1)
B        = build-san
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
B        = build
endif

LIB_SRC  = $(wildcard common/*.c ingest/*.c ingest/analyzer/*.c db/*.c query/*.c server/*.c report/*.c gate/*.c sarif/*.c)
CLI_SRC  = $(wildcard cli/*.c)
LIB_OBJ  = $(LIB_SRC:%.c=$(B)/%.o) $(B)/gen/db_migrations.o $(B)/gen/rules_default.o \
           $(B)/gen/scopes_default.o $(B)/gen/hpy_api.o $(B)/gen/openapi.o \
           $(B)/gen/cpython_names.o $(B)/gen/fix_calls.o
CLI_OBJ  = $(CLI_SRC:%.c=$(B)/%.o)
TEST_SRC = $(wildcard tests/unit/test_*.c)
TEST_BIN = $(TEST_SRC:tests/unit/%.c=$(B)/tests/%)
MIGRATIONS = $(sort $(wildcard db/migrations/*.sql))

PORT    ?= 8080
DEMO_DB ?= build/demo.db
REFS    ?=
NAME    ?=
INCLUDE ?=

.PHONY: all deps run test unit-tests bench bench-sarif bench-pkgs bench-api bench-load bench-cold bench-pages bench-truth check clean demo fuzz fuzz-sarif fuzz-http stress
all: $(B)/portdash

# libgit2, libcrypto and SQLite are loaded on the first call of one of
# their functions (common/pd_lazylib.h): mapping and relocating them cost
# every start, `analyze FILE...` included, about 15 ms of CPU on the
# development VM (issue 26).  The trampolines (common/lazylib.sh) are
# x86-64 code; elsewhere the libraries are linked as usual.  Test
# binaries link them as usual.
LAZY_LIBS = git2 crypto sqlite3 jansson z sodium yajl xxhash zstd
ifneq ($(filter x86_64-%,$(shell $(CC) -dumpmachine)),)
LAZY_OBJ = $(B)/gen/lazylib.o
PORTDASH_LIBS = $(filter-out $(LAZY_LIBS:%=-l%),$(LDLIBS))
else
LAZY_OBJ =
PORTDASH_LIBS = $(LDLIBS)
endif

$(B)/portdash: $(CLI_OBJ) $(LIB_OBJ) $(LAZY_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(PORTDASH_LIBS)

$(B)/gen/lazylib.S: $(CLI_OBJ) $(LIB_OBJ) common/lazylib.sh Makefile
	@mkdir -p $(dir $@)
	sh common/lazylib.sh $@ "$(CC)" $(LAZY_LIBS) -- $(CLI_OBJ) $(LIB_OBJ)

$(B)/gen/lazylib.o: $(B)/gen/lazylib.S
	$(CC) -c -o $@ $<

# Header dependencies come from the compiler (-MMD -MP), one .d per object.
# An object without its .d (built before -MMD, or the .d lost) is rebuilt:
# the empty rule makes a missing .d count as new.
$(B)/%.o: %.c $(B)/%.d
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# Profile-guided optimisation of the analyzer (issue 26, doc/benchmarks.md
# "What was changed"): its files are compiled once instrumented into
# $(B)/pgo/, that build analyses the project's own fixtures (PGO_TRAIN:
# C, C++ and numpy templates; never a fetched repository), and the profile
# it writes guides their real compilation, so that the branches the lexer,
# the scanner and the template expansion take most run straight through.
# A function the training never ran is compiled as without a profile
# (-fprofile-partial-training), so an input unlike the fixtures is no
# slower than before.  GCC 11 or later (the options below); PGO=0 turns
# it off, a sanitizer build (SAN=1) or a tree without the fixtures never
# has it.  tests/run_all.sh compares this build's analysis and ingest with
# the sanitizer build's.
PGO_TRAIN = tests/fixtures
AN_OBJ    = $(filter $(B)/ingest/analyzer/%,$(LIB_OBJ))
# Asked of the compiler once per make (simply expanded), not per use.
ifeq ($(origin PGO),undefined)
PGO := $(shell $(CC) -fprofile-partial-training -dumpbase-ext .c -x c -c -o /dev/null \
                /dev/null 2>/dev/null && echo 1 || echo 0)
endif
ifeq ($(SAN),1)
override PGO = 0
endif
ifeq ($(wildcard $(firstword $(PGO_TRAIN))),)
override PGO = 0
endif
# The analyzer's objects name the setting they were built with, so that
# `make PGO=0` after a profile-guided build (or the reverse) rebuilds them.
PGO_MODE = $(B)/.pgo-$(PGO)
$(PGO_MODE):
	@mkdir -p $(dir $@)
	@rm -f $(B)/.pgo-*
	@touch $@
$(AN_OBJ): $(PGO_MODE)
ifeq ($(PGO),1)
PGO_DIR   = $(B)/pgo
AN_GEN    = $(AN_OBJ:$(B)/%=$(PGO_DIR)/%)

# Named as the real object is (-dumpdir, -dumpbase): GCC keys a static
# function's profile by that name, and the profile is written where the
# real compilation reads it, $(B)/ingest/analyzer/NAME.gcda.
$(AN_GEN): $(PGO_DIR)/%.o: %.c $(PGO_DIR)/%.d
	@mkdir -p $(dir $@) $(dir $(B)/$*)
	$(CC) $(CFLAGS) -MF $(PGO_DIR)/$*.d -fprofile-generate -fprofile-update=single \
	  -dumpdir $(dir $(B)/$*) -dumpbase $(notdir $<) -dumpbase-ext .c -c -o $@ $<

# Linked as usual (no lazy loading): it only runs the training.  The
# other objects are order-only: a change outside the analyzer does not
# change its profile, so it neither trains again nor recompiles the
# analyzer (the profile follows the analyzer's code, not the fixtures').
$(PGO_DIR)/portdash: $(AN_GEN) | $(CLI_OBJ) $(filter-out $(AN_OBJ),$(LIB_OBJ))
	$(CC) $(LDFLAGS) -fprofile-generate -o $@ $| $(AN_GEN) $(LDLIBS)

# Both walks: the one with the call graph's facts (json) and the one
# without (functions).  On one thread: the counters are updated without
# atomics (-fprofile-update=single), and two threads counting at once
# leave a profile GCC refuses as corrupted.
$(PGO_DIR)/train.stamp: $(PGO_DIR)/portdash
	@echo "PGO: training the analyzer on $(PGO_TRAIN) (make PGO=0 builds without)"
	rm -f $(AN_OBJ:.o=.gcda)
	$(PGO_DIR)/portdash analyze --threads 1 --format json $(PGO_TRAIN) > /dev/null
	$(PGO_DIR)/portdash analyze --threads 1 --format functions $(PGO_TRAIN) > /dev/null
	touch $@

$(AN_OBJ): $(B)/%.o: %.c $(B)/%.d $(PGO_DIR)/train.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fprofile-use -fprofile-partial-training -Wno-missing-profile -c -o $@ $<

-include $(AN_GEN:.o=.d)
$(PGO_DIR)/%.d: ;
.PRECIOUS: $(PGO_DIR)/%.d
endif

# Migrations are embedded in the binary so a database never meets a schema
# from another build.
$(B)/gen/db_migrations.c: $(MIGRATIONS) db/embed_migrations.sh db/migrations
	@mkdir -p $(dir $@)
	sh db/embed_migrations.sh $(MIGRATIONS) > $@

# Files embedded whole as `const char SYMBOL[]` (common/embed.sh), one line
# each: GEN = FILE SYMBOL.  The default rules (--rules FILE overrides them),
# the built-in scopes (serve --scopes FILE), the CPython -> HPy name table
# (tools/gen_hpy_api.py writes it; never edited by hand) and the OpenAPI
# document (served from the binary; a test checks it against the routes).
EMBED_rules_default  = ingest/rules/default.rules rules_default_text
EMBED_scopes_default = db/scopes/default.scopes   scopes_default_text
EMBED_hpy_api        = server/hpy_api.tsv         hpy_api_text
EMBED_openapi        = server/openapi.json        srv_openapi_json
EMBED_cpython_names  = ingest/rules/cpython.names rules_cpython_names_text
EMBED_fix_calls      = ingest/rules/fix_calls.tsv fix_calls_text
EMBED_GEN = rules_default scopes_default hpy_api openapi cpython_names fix_calls

# One rule for every embedded file: the stem names the EMBED_ line.
.SECONDEXPANSION:
$(EMBED_GEN:%=$(B)/gen/%.c): $(B)/gen/%.c: $$(firstword $$(EMBED_$$*)) common/embed.sh
	@mkdir -p $(dir $@)
	sh common/embed.sh $(lastword $(EMBED_$*)) $< > $@

# Generated tables, committed; rerun when the sources change (make deps
# installs python3-dev; HPY_GIT is a clone of github.com/hpyproject/hpy).
# Neither runs in a normal build: their output is reviewed as a diff.
CPYTHON_INCLUDE ?= /usr/include/python3.11
HPY_GIT ?=
.PHONY: capi-names hpy-api fix-calls
capi-names:
	python3 tools/gen_capi_names.py --include $(CPYTHON_INCLUDE) -o ingest/rules/cpython.names

# HPy's replacements (tools/gen_hpy_api.py): the table from HPy 0.9.0 and
# tools/hpy_api_manual.tsv, kept to the names of cpython.names, with the
# HPy names of 0.0.4, 0.9.0 and master recorded beside it.
hpy-api: capi-names
	@[ -n "$(HPY_GIT)" ] || { echo "hpy-api: set HPY_GIT to a clone of HPy" \
	  "(git clone --bare https://github.com/hpyproject/hpy)"; exit 2; }
	python3 tools/gen_hpy_api.py --git-dir $(HPY_GIT) --tag 0.9.0 --versions 0.0.4,0.9.0,master \
	  --cpython-names ingest/rules/cpython.names --manual tools/hpy_api_manual.tsv \
	  -o server/hpy_api.tsv --names-out server/hpy_api_names.tsv


# The rewrites `portdash fix` may offer (tools/gen_fix_calls.py, doc/fixes.md):
# the one-to-one rows of server/hpy_api.tsv whose shape CPython's and HPy's
# headers confirm.
fix-calls:
	@[ -n "$(HPY_GIT)" ] || { echo "fix-calls: set HPY_GIT to a clone of HPy"; exit 2; }
	python3 tools/gen_fix_calls.py --include $(CPYTHON_INCLUDE) --hpy-git $(HPY_GIT) \
	  --tag 0.9.0 --table server/hpy_api.tsv -o ingest/rules/fix_calls.tsv

$(B)/gen/%.o: $(B)/gen/%.c
	$(CC) $(CFLAGS) -c -o $@ $<

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_BIN:=.d)

$(B)/%.d: ;
.PRECIOUS: $(B)/%.d

$(B)/tests/%: tests/unit/%.c $(LIB_OBJ) $(B)/tests/%.d
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS) -lcmocka -lcurl

# The allocator's settings (common/pd_malloc.c) show only under glibc's own
# allocator, which the sanitizers replace: their test is built without
# them, from the one file it tests, so that make test runs it for real.
$(B)/tests/test_malloc $(B)/tests/test_malloc_huge: $(B)/tests/%: tests/unit/%.c \
  common/pd_malloc.c common/pd_error.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -fsanitize% -fno-sanitize% -MMD -MP,$(CFLAGS)) -Itests/unit -o $@ \
	  $(filter %.c,$^) -lcmocka -lpthread

# Installs only what is missing; the stamp keeps repeated make runs quiet.
# Node.js comes from Debian (nodejs + npm) unless a node is already on the
# PATH; either way it must be NODE_MIN or newer, checked here so a mismatch
# stops with this message instead of five failing browser test files.
deps: build/.deps-stamp
build/.deps-stamp: Makefile package.json package-lock.json
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if ! command -v npm >/dev/null; then missing="$$missing nodejs npm"; fi; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing || \
	    { echo "deps: apt-get could not install$$missing (run as root, with Debian's package lists)"; exit 1; }; \
	fi
	@v=$$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0); \
	if [ "$$v" -lt $(NODE_MIN) ]; then \
	  echo "deps: Node.js $$(node --version 2>/dev/null || echo missing) is too old: playwright-core" \
	       "(browser tests) needs Node.js $(NODE_MIN) or newer (Debian 12 ships 18)"; exit 1; \
	fi
	npm ci --no-audit --no-fund --loglevel=error
	@mkdir -p build && touch $@

# Installed layout: the binary finds ../share/portdash/{static,vendor} by
# itself (cli/cli_serve.c); units are written with the real paths.
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
DATADIR  = $(PREFIX)/share/portdash
MANDIR   = $(PREFIX)/share/man/man1
UNITDIR ?= $(PREFIX)/lib/systemd/system
STATEDIR ?= /var/lib/portdash
CONFDIR ?= /etc/portdash
VENDOR_FILES = chart.js/dist/chart.umd.js marked/lib/marked.esm.js dompurify/dist/purify.es.mjs \
               diff/dist/diff.js prismjs/components/prism-core.min.js \
               prismjs/components/prism-clike.min.js prismjs/components/prism-c.min.js
# srv_static.c checks the same files at `serve` (SRV_VENDOR_FILES; the
# fuzz targets compile it too).
VENDOR_DEF = -DSRV_VENDOR_FILES='$(foreach f,$(VENDOR_FILES),"$(f)",)'
$(B)/server/srv_static.o: CFLAGS += $(VENDOR_DEF)
UNITS = portdash.service portdash-ingest.service portdash-ingest.timer \
        portdash-snapshot.service portdash-snapshot.timer

install: deps
	$(MAKE) all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/static $(DESTDIR)$(MANDIR) \
	  $(DESTDIR)$(UNITDIR) $(DESTDIR)$(DATADIR)/examples
	install -m 755 $(B)/portdash $(DESTDIR)$(BINDIR)/portdash
	cp -R static/. $(DESTDIR)$(DATADIR)/static/
	for f in $(VENDOR_FILES); do \
	  install -D -m 644 node_modules/$$f $(DESTDIR)$(DATADIR)/vendor/$$f || exit 1; done
	install -m 644 ingest/rules/default.rules $(DESTDIR)$(DATADIR)/default.rules
	install -m 644 db/scopes/default.scopes $(DESTDIR)$(DATADIR)/default.scopes
	install -m 644 doc/portdash.1 $(DESTDIR)$(MANDIR)/portdash.1
	for u in $(UNITS); do \
	  sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@CONFDIR@|$(CONFDIR)|g' \
	      deploy/systemd/$$u > $(DESTDIR)$(UNITDIR)/$$u || exit 1; done
	install -m 644 deploy/portdash.env deploy/nginx/portdash.conf $(DESTDIR)$(DATADIR)/examples/

run: deps
	$(MAKE) all
	sh tests/run_demo.sh "$(B)/portdash" "$(DEMO_DB)" "$(PORT)" "$(REPO)" "$(REFS)" \
	  "$(NAME)" "$(INCLUDE)"

test: deps
	sh tests/checksrc.sh
	$(MAKE) SAN=1 all unit-bins build-san/stress_conn
	$(MAKE) all
	sh tests/run_all.sh build-san

unit-bins: $(TEST_BIN)

# Connection exhaustion against a real server on loopback (doc/hardening.md,
# "Hardening"); make test runs it too.
stress: deps
	$(MAKE) SAN=1 all build-san/stress_conn
	sh tests/stress/run.sh build-san/portdash build-san/stress_conn

build-san/stress_conn: tests/stress/stress_conn.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -o $@ $<

bench: deps
	$(MAKE) all
	@[ -n "$(BENCH_REPO)" ] || { echo "bench: set BENCH_REPO to a bare clone of numpy-hpy" \
	  "(git clone --bare https://github.com/steve-s/numpy-hpy; see doc/benchmarks.md)"; exit 2; }
	BENCH_REPO="$(BENCH_REPO)" sh tests/bench/run.sh build/portdash

# SARIF import time and peak RSS for generated logs of ~100 and ~400 MB
# against a fixture repository (tests/bench/sarif.sh; make bench runs it too).
bench-sarif: deps
	$(MAKE) all
	sh tests/bench/sarif.sh build/portdash $(BENCH_SARIF_BEFORE)

# The API against nginx serving the same bytes (issue 12): needs a numpy-hpy
# git directory in BENCH_REPO (doc/benchmarks.md, "The API against nginx").
BENCH_PKGS = nginx wrk curl
bench-pkgs:
	@missing=""; for p in $(BENCH_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "bench-api: installing$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

bench-api: deps bench-pkgs
	$(MAKE) all
	BENCH_REPO="$(BENCH_REPO)" sh tests/bench/api.sh build/portdash

# Warm reads while an ingest of numpy/core writes to the served database
# (issue 26; tests/bench/writeload.sh): BENCH_REPO as for bench-api,
# BENCH_DB=FILE a database ingested so before (copied, not written).
bench-load: deps bench-pkgs
	$(MAKE) all
	BENCH_REPO="$(BENCH_REPO)" BENCH_DB="$(BENCH_DB)" sh tests/bench/writeload.sh build/portdash

# Cold answers (issue 26.3; tests/bench/cold.sh): the file list, a file page
# and a 1,000-point history for commits nobody asked for, BENCH_BEFORE=BIN
# (another build's portdash) side by side.  BENCH_REPO as for bench-api,
# BENCH_DB=FILE a database ingested so before (each build serves a copy).
bench-cold: deps
	$(MAKE) all
	BENCH_REPO="$(BENCH_REPO)" BENCH_DB="$(BENCH_DB)" sh tests/bench/cold.sh build/portdash $(BENCH_BEFORE)

# The biggest pages in headless Chromium (issue 26.4, doc/benchmarks.md):
# arraytypes.c.src with a 3,781-result SARIF upload and the overview,
# median of 5 runs.  BENCH_REPO=GITDIR (or BENCH_DB=FILE ingested before);
# BENCH_BEFORE=DIR times another static/ beside this one.
bench-pages: deps
	$(MAKE) all
	BENCH_REPO="$(BENCH_REPO)" sh tests/bench/pages.sh build/portdash

# The measure of truth (issue 21, doc/truth.md): tests/truth/labels.tsv, read
# by hand, against what the file page says.  Each TRUTH_* names a git
# directory; an empty one skips that port.  TRUTH_DB=FILE keeps the database.
TRUTH_NUMPY ?=
TRUTH_KIWI  ?=
TRUTH_UJSON ?=
TRUTH_HPY   ?=
TRUTH_LABELS ?= tests/truth/labels.tsv
truth_comma := ,
bench-truth: deps
	$(MAKE) all
	@[ -n "$(TRUTH_NUMPY)$(TRUTH_KIWI)$(TRUTH_UJSON)$(TRUTH_HPY)" ] || { echo "bench-truth:" \
	  "set TRUTH_NUMPY, TRUTH_KIWI, TRUTH_UJSON and/or TRUTH_HPY to git directories" \
	  "(doc/truth.md)"; exit 2; }
	sh tests/bench/truth.sh build/portdash "$(TRUTH_LABELS)" \
	  $(if $(TRUTH_NUMPY),numpy-hpy "$(TRUTH_NUMPY)" hpy$(truth_comma)hpy-convert-object-dtype 'numpy/core/**') \
	  $(if $(TRUTH_KIWI),kiwi "$(TRUTH_KIWI)" 1.3.2-hpy -) \
	  $(if $(TRUTH_UJSON),ultrajson-hpy "$(TRUTH_UJSON)" hpy 'python/**$(truth_comma)lib/**$(truth_comma)deps/double-conversion/double-conversion/**') \
	  $(if $(TRUTH_HPY),hpy "$(TRUTH_HPY)" master 'hpy/devel/**')

# libFuzzer targets (tests/fuzz/), ASan + UBSan: fuzz_analyze over the
# lexer and the analyzer, fuzz_sarif over SARIF reading, fuzz_http over the
# HTTP request path (issue 16); make fuzz / fuzz-sarif / fuzz-http, each
# FUZZ_SECONDS.  Each links the sources of every object the binary links
# (FUZZ_LIB, derived from LIB_OBJ; the generated ones from $(B)/gen), so
# that a new source file can never be missing from a fuzz link.
FUZZ_SECONDS ?= 60
FUZZ_LIB = $(patsubst $(B)/%.o,%.c,$(filter-out $(B)/gen/%,$(LIB_OBJ))) \
           $(patsubst %.o,%.c,$(filter $(B)/gen/%,$(LIB_OBJ)))
FUZZ_CC  = clang -std=c11 -D_GNU_SOURCE $(VENDOR_DEF) -g -O1 -Icommon -Iingest -Idb -Iquery -Iserver -Igate -Isarif \
           -Ireport -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
           $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
FUZZ_BIN = build/fuzz/fuzz_analyze build/fuzz/fuzz_sarif build/fuzz/fuzz_http

fuzz: build/fuzz/fuzz_analyze
	sh tests/fuzz/run.sh build/fuzz/fuzz_analyze $(FUZZ_SECONDS)

fuzz-sarif: build/fuzz/fuzz_sarif
	sh tests/fuzz/run_plain.sh build/fuzz/fuzz_sarif $(FUZZ_SECONDS) tests/fixtures/sarif

fuzz-http: build/fuzz/fuzz_http
	sh tests/fuzz/run_plain.sh build/fuzz/fuzz_http $(FUZZ_SECONDS) tests/fuzz/http_seeds

$(FUZZ_BIN): build/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB) \
    $(wildcard common/*.h ingest/*.h ingest/analyzer/*.h db/*.h query/*.h server/*.h sarif/*.h gate/*.h report/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -o $@ $< $(FUZZ_LIB) $(LDLIBS)

# The fuzz targets are built (not run) too: they link the whole library
# with clang, and nothing else notices when a new source breaks that link.
check: deps
	sh tests/checksrc.sh
	$(MAKE) clean-build-check
	$(MAKE) $(FUZZ_BIN)

clean-build-check:
	rm -rf build-check && $(MAKE) B=build-check WERROR=-Werror all

clean:
	rm -rf build build-san build-check
