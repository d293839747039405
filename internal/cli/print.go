package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	investv1 "github.com/fundshare/fundshare-operator/api/v1alpha1"
)

// output is -o: how a reading command prints.
type output struct {
	format string
}

var formats = []string{"table", "json", "yaml"}

func (o *output) bind(f *flags, def string) {
	f.StringVarP(&o.format, "output", "o", def, "output format: table, json or yaml")
}

func (o *output) validate(path string) error {
	if !slices.Contains(formats, o.format) {
		return usageErrorf("%s: -o %q: one of table, json, yaml", path, o.format)
	}
	return nil
}

// object prints obj (of the operator's API group, kind kind) as JSON or YAML with its
// apiVersion and kind, as kubectl get -o prints it; table is for the caller.
func (o *output) object(w io.Writer, kind string, obj runtime.Object) error {
	obj.GetObjectKind().SetGroupVersionKind(investv1.GroupVersion.WithKind(kind))
	return o.encode(w, obj)
}

// list prints items as a <kind>List with each item's apiVersion and kind.
func (o *output) list(w io.Writer, kind string, items []runtime.Object) error {
	for _, it := range items {
		it.GetObjectKind().SetGroupVersionKind(investv1.GroupVersion.WithKind(kind))
	}
	if items == nil {
		items = []runtime.Object{}
	}
	gvk := investv1.GroupVersion.WithKind(kind + "List")
	return o.encode(w, &struct {
		APIVersion string           `json:"apiVersion"`
		Kind       string           `json:"kind"`
		Metadata   map[string]any   `json:"metadata"`
		Items      []runtime.Object `json:"items"`
	}{gvk.GroupVersion().String(), gvk.Kind, map[string]any{}, items})
}

func (o *output) encode(w io.Writer, v any) error {
	var out []byte
	var err error
	switch o.format {
	case "json":
		out, err = json.MarshalIndent(v, "", "    ")
		out = append(out, '\n')
	case "yaml":
		out, err = yaml.Marshal(v)
	default:
		return fmt.Errorf("output %q is not json or yaml", o.format)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// table prints a header and rows, tab-separated cells aligned as kubectl aligns them.
func table(w io.Writer, header string, rows []string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		fmt.Fprintln(tw, r)
	}
	return tw.Flush()
}
