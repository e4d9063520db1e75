# Pitlane: `make run` serves the site with the demo league; `make test` runs every test.
.PHONY: run test build web go bench bench-extract train-glyphs clean


run:
	@scripts/run.sh

test:
	@scripts/test.sh

build: web go

web: web/node_modules/.package-lock.json
	cd web && npm run build --silent

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error

go:
	go build -o bin/pitlane ./cmd/pitlane

bench:
	@scripts/bench.sh

bench-extract:
	@scripts/bench-extract.sh

clean:
	rm -rf bin web/dist/assets web/dist/index.html

# The Stats panel reader's glyph classifier (internal/extract/glyphnet):
# draws its training glyphs from the game's typeface and trains it, one
# thread, fixed seeds; writes weights.bin and weights.sha256.
train-glyphs:
	GOMAXPROCS=1 go run ./scripts/train-glyphs
