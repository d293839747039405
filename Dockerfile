# syntax=docker/dockerfile:1
# The manager image: a static binary on distroless, running as a non-root user.
#   make docker-build IMG=registry.example.com/fundshare-operator:v0.1.0
# (or: docker build --build-arg VERSION=v0.1.0 -t <image> .)

FROM golang:1.26 AS builder
ARG VERSION=dev
ARG TARGETOS=linux
ARG TARGETARCH
WORKDIR /src

# Modules first, so the layer with the module cache survives source edits.
COPY go.mod go.sum ./
RUN go mod download

COPY api/ api/
COPY apiserver/ apiserver/
COPY cmd/ cmd/
COPY controllers/ controllers/
COPY internal/ internal/

RUN CGO_ENABLED=0 GOOS=${TARGETOS} GOARCH=${TARGETARCH} \
    go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/manager ./cmd

FROM gcr.io/distroless/static:nonroot
LABEL org.opencontainers.image.title="fundshare-operator" \
      org.opencontainers.image.source="https://github.com/fundshare/fundshare-operator"
WORKDIR /
COPY --from=builder /out/manager /manager
USER 65532:65532
ENTRYPOINT ["/manager"]
