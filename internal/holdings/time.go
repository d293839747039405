package holdings

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// metaTime truncates to seconds, the precision the API server keeps, so that a status
// computed twice compares equal.
func metaTime(t time.Time) metav1.Time { return metav1.NewTime(t.UTC().Truncate(time.Second)) }
