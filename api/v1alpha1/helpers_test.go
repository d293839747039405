package v1alpha1_test

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fundshare/fundshare-operator/internal/controlplane"
)

func objMeta(ns string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: controlplane.NewID(), Namespace: ns}
}

func mustDate(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func nowTime() metav1.Time { return metav1.NewTime(time.Now().Truncate(time.Second)) }
