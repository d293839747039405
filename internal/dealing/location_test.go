package dealing

import "testing"

func TestATimeZoneIsReadOnceAndSharedAndAnUnknownOneIsNotKept(t *testing.T) {
	a, err := location("Europe/Luxembourg")
	if err != nil {
		t.Fatal(err)
	}
	b, err := location("Europe/Luxembourg")
	if err != nil || a != b {
		t.Fatalf("the second read gave %p (%v), want the first's %p", b, err, a)
	}
	if _, err := location("Europe/Atlantis"); err == nil {
		t.Fatal("an unknown zone loaded")
	}
	if _, kept := locations.Load("Europe/Atlantis"); kept {
		t.Fatal("an unknown zone was kept")
	}
}
