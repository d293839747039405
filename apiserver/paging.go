package apiserver

import (
	"sort"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// paginate orders items stably, by creation time and then by name (the id), and returns
// the page p of them. The cache returns lists in no particular order, so without this a
// client walking pages could see an item twice or never.
func paginate[T any, PT interface {
	*T
	client.Object
}](items []T, p page) []T {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := PT(&items[i]), PT(&items[j])
		ta, tb := a.GetCreationTimestamp(), b.GetCreationTimestamp()
		if !ta.Equal(&tb) {
			return ta.Before(&tb)
		}
		return a.GetName() < b.GetName()
	})
	if p.skip >= len(items) {
		return nil
	}
	items = items[p.skip:]
	if len(items) > p.limit {
		items = items[:p.limit]
	}
	return items
}

// pageViews is the page p of items (paginate) as views: never nil, so that an empty page
// is written as [].
func pageViews[T any, PT interface {
	*T
	client.Object
}, V any](items []T, p page, view func(PT) V) []V {
	out := []V{}
	for _, item := range paginate[T, PT](items, p) {
		out = append(out, view(PT(&item)))
	}
	return out
}
