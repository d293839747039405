//go:build tools

// Package tools pins the kube-apiserver main package in this module's graph.
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
