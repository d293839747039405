// Package crash kills `make run` (the devrun binary) with SIGKILL in the middle of a
// workload and checks that it heals by itself: every order ends, and the books equal the
// chain. It starts devrun on free loopback ports and a folder of its own, so a `make run`
// beside it is not disturbed.
package crash
