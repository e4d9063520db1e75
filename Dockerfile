# syntax=docker/dockerfile:1
# Multi-stage build: the React app, then the Go binary that embeds it, then a
# small runtime with Tesseract for the offline stats reader.

FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM golang:1.26-bookworm AS go
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY cmd ./cmd
COPY internal ./internal
COPY migrations ./migrations
COPY web/embed.go ./web/embed.go
COPY --from=web /src/web/dist ./web/dist
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/pitlane ./cmd/pitlane

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates tesseract-ocr tesseract-ocr-eng \
    && rm -rf /var/lib/apt/lists/*
COPY --from=go /out/pitlane /usr/local/bin/pitlane
# The data folder (the generated development secret) belongs to nobody, the
# user the server runs as; a new volume mounted there copies that owner.
RUN mkdir -p /var/lib/pitlane && chown nobody:nogroup /var/lib/pitlane && chmod 700 /var/lib/pitlane
USER nobody
ENV ADDR=:8080 PITLANE_DATA_DIR=/var/lib/pitlane
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/pitlane"]
CMD ["serve"]
