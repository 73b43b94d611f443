// Package deploykubernetes holds the tests of the Kubernetes manifests in
// this directory: each manifest decoded strictly into the Kubernetes API
// types, the pod's invariants, and the embedded configurations parsed by
// rypsok's and rypsok-egress's own loaders. It is a module of its own
// (replace github.com/rypsok/rypsok => ../..), so that k8s.io/api never
// enters rypsok's dependencies. Run it with `make deploy-check`.
package deploykubernetes
