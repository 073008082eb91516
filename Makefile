# portdash: the HPy porting dashboard.  One plain Makefile.
#
#   make deps    install build/test dependencies (Debian packages, npm packages)
#   make         build build/portdash
#   make run     build a demo repository (or REPO=GITDIR), ingest it, serve it
#   make test    sanitizer build + unit, ingest, API and browser tests
#   make bench   analyzer/ingest benchmarks (see README)
#   make check   style checks (line length, banned functions, warnings)
#   make clean

DEB_PKGS = build-essential pkg-config git libgit2-dev libmicrohttpd-dev \
           libjansson-dev libsqlite3-dev zlib1g-dev libsodium-dev libcmocka-dev libcurl4-openssl-dev \
           sqlite3 chromium time clang universal-ctags
PKGS     = libgit2 libmicrohttpd jansson sqlite3 zlib libsodium

CC      ?= cc
OPT     ?= -O2
CFLAGS  += -std=c11 -D_GNU_SOURCE -g $(OPT) -Wall -Wextra -Wshadow -Wno-unused-parameter $(WERROR) \
           -Icommon -Iingest -Idb -Iserver -Igate -Isarif -Ireport $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm

# SAN=1 builds into build-san/ with AddressSanitizer + UBSan (used by make test).
ifeq ($(SAN),1)
B        = build-san
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
B        = build
endif

LIB_SRC  = $(wildcard common/*.c ingest/*.c db/*.c server/*.c report/*.c gate/*.c sarif/*.c)
CLI_SRC  = $(wildcard cli/*.c)
LIB_OBJ  = $(LIB_SRC:%.c=$(B)/%.o) $(B)/gen/db_migrations.o $(B)/gen/rules_default.o $(B)/gen/openapi.o \
           $(B)/gen/scopes_default.o
CLI_OBJ  = $(CLI_SRC:%.c=$(B)/%.o)
TEST_SRC = $(wildcard tests/unit/test_*.c)
TEST_BIN = $(TEST_SRC:tests/unit/%.c=$(B)/tests/%)
MIGRATIONS = $(sort $(wildcard db/migrations/*.sql))

PORT    ?= 8080
DEMO_DB ?= build/demo.db
REFS    ?=
NAME    ?=
INCLUDE ?=

.PHONY: all deps run test unit-tests bench check clean demo fuzz fuzz-sarif fuzz-http stress
all: $(B)/portdash

$(B)/portdash: $(CLI_OBJ) $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/%.o: %.c $(wildcard common/*.h ingest/*.h db/*.h server/*.h cli/*.h report/*.h gate/*.h sarif/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# Migrations are embedded in the binary so a database never meets a schema
# from another build.
$(B)/gen/db_migrations.c: $(MIGRATIONS) db/embed_migrations.sh
	@mkdir -p $(dir $@)
	sh db/embed_migrations.sh $(MIGRATIONS) > $@

$(B)/gen/db_migrations.o: $(B)/gen/db_migrations.c
	$(CC) $(CFLAGS) -c -o $@ $<

# The default rules file is embedded too; --rules FILE overrides it.
$(B)/gen/rules_default.c: ingest/rules/default.rules common/embed.sh
	@mkdir -p $(dir $@)
	sh common/embed.sh rules_default_text $< > $@

$(B)/gen/rules_default.o: $(B)/gen/rules_default.c
	$(CC) $(CFLAGS) -c -o $@ $<

# So are the built-in scopes; serve --scopes FILE overrides them.
$(B)/gen/scopes_default.c: db/scopes/default.scopes common/embed.sh
	@mkdir -p $(dir $@)
	sh common/embed.sh scopes_default_text $< > $@

$(B)/gen/scopes_default.o: $(B)/gen/scopes_default.c
	$(CC) $(CFLAGS) -c -o $@ $<

# The OpenAPI document is served from the binary; a test checks it against
# the route table.
$(B)/gen/openapi.c: server/openapi.json common/embed.sh
	@mkdir -p $(dir $@)
	sh common/embed.sh srv_openapi_json $< > $@

$(B)/gen/openapi.o: $(B)/gen/openapi.c
	$(CC) $(CFLAGS) -c -o $@ $<

$(B)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcmocka -lcurl

# Installs only what is missing; the stamp keeps repeated make runs quiet.
deps: build/.deps-stamp
build/.deps-stamp: Makefile package.json package-lock.json
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi; \
	if ! command -v npm >/dev/null; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; \
	fi
	npm ci --no-audit --no-fund --loglevel=error
	@mkdir -p build && touch $@

run: deps
	$(MAKE) all
	sh tests/run_demo.sh "$(B)/portdash" "$(DEMO_DB)" "$(PORT)" "$(REPO)" "$(REFS)" \
	  "$(NAME)" "$(INCLUDE)"

test: deps
	$(MAKE) SAN=1 all unit-bins build-san/stress_conn
	sh tests/run_all.sh build-san

unit-bins: $(TEST_BIN)

# Connection exhaustion against a real server on loopback (README,
# "Hardening"); make test runs it too.
stress: deps
	$(MAKE) SAN=1 all build-san/stress_conn
	sh tests/stress/run.sh build-san/portdash build-san/stress_conn

build-san/stress_conn: tests/stress/stress_conn.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -o $@ $<

bench: deps
	$(MAKE) all
	sh tests/bench/run.sh build/portdash

# libFuzzer target over the lexer and analyzer (tests/fuzz/), ASan + UBSan.
FUZZ_SECONDS ?= 60
FUZZ_SRC = tests/fuzz/fuzz_analyze.c ingest/lex.c ingest/rules.c $(wildcard ingest/analyze*.c) ingest/tmpl.c \
           common/pd_error.c
fuzz: build/fuzz/fuzz_analyze
	sh tests/fuzz/run.sh build/fuzz/fuzz_analyze $(FUZZ_SECONDS)

build/fuzz/fuzz_analyze: $(FUZZ_SRC) build/gen/rules_default.c $(wildcard ingest/*.h common/*.h)
	@mkdir -p $(dir $@)
	clang -std=c11 -D_GNU_SOURCE -g -O1 -Icommon -Iingest \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	  $(shell pkg-config --cflags libgit2) -o $@ $(FUZZ_SRC) build/gen/rules_default.c \
	  $(shell pkg-config --libs libgit2)

# libFuzzer targets over SARIF reading and the HTTP request path (issue 16):
# make fuzz-sarif / make fuzz-http, FUZZ_SECONDS each.
FUZZ_LIB = $(filter-out server/srv.c,$(LIB_SRC)) server/srv.c build/gen/db_migrations.c \
           build/gen/rules_default.c build/gen/openapi.c build/gen/scopes_default.c
FUZZ_CC  = clang -std=c11 -D_GNU_SOURCE -g -O1 -Icommon -Iingest -Idb -Iserver -Igate -Isarif \
           -Ireport -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
           $(shell pkg-config --cflags $(PKGS) 2>/dev/null)

fuzz-sarif: build/fuzz/fuzz_sarif
	sh tests/fuzz/run_plain.sh build/fuzz/fuzz_sarif $(FUZZ_SECONDS) tests/fixtures/sarif

fuzz-http: build/fuzz/fuzz_http
	sh tests/fuzz/run_plain.sh build/fuzz/fuzz_http $(FUZZ_SECONDS) tests/fuzz/http_seeds

build/fuzz/fuzz_sarif build/fuzz/fuzz_http: build/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB) \
    $(wildcard common/*.h ingest/*.h db/*.h server/*.h sarif/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -o $@ $< $(FUZZ_LIB) $(LDLIBS)

check: deps
	sh tests/checksrc.sh
	$(MAKE) clean-build-check

clean-build-check:
	rm -rf build-check && $(MAKE) B=build-check WERROR=-Werror all

clean:
	rm -rf build build-san build-check
