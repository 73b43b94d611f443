# syntax=docker/dockerfile:1
# rypsok's container images, one per binary:
#   docker build --target rypsok-egress --build-arg VERSION=v0.1.0 -t ghcr.io/rypsok/rypsok-egress:v0.1.0 .
#   docker build --target rypsok        --build-arg VERSION=v0.1.0 -t ghcr.io/rypsok/rypsok:v0.1.0 .
# (`make image` builds both.) Static binaries (CGO_ENABLED=0), -trimpath,
# the version stamped, on distroless static (CA certificates, no shell),
# as non-root users. The rypsok image carries rypsok-egress too, so that
# it also runs alone in local mode (`docker run -i --rm IMAGE`: stdio,
# rypsok starting its own egress); in Kubernetes the egress runs from its
# own image, in its own container (deploy/kubernetes).

ARG GO_VERSION=1.26.8

FROM --platform=$BUILDPLATFORM golang:${GO_VERSION} AS build
ARG TARGETOS
ARG TARGETARCH
ARG VERSION=devel
WORKDIR /src
ENV GOTOOLCHAIN=local
COPY go.mod go.sum ./
RUN go mod download
COPY cmd/ cmd/
COPY egress/ egress/
COPY front/ front/
COPY shared/ shared/
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -ldflags "-s -w -X github.com/rypsok/rypsok/shared/version.stamp=${VERSION}" \
    -o /out/ ./cmd/rypsok ./cmd/rypsok-egress

# rypsok-egress, user 65533 (the user deploy/kubernetes's firewall lets
# out), group 65532 (the socket's group, shared with rypsok's user).
FROM gcr.io/distroless/static-debian12:nonroot AS rypsok-egress
COPY --from=build /out/rypsok-egress /usr/local/bin/rypsok-egress
USER 65533:65532
ENTRYPOINT ["/usr/local/bin/rypsok-egress"]

# rypsok, user 65532 (distroless's nonroot). The last stage: the default
# target.
FROM gcr.io/distroless/static-debian12:nonroot AS rypsok
COPY --from=build /out/rypsok /out/rypsok-egress /usr/local/bin/
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/rypsok"]
CMD ["serve"]
