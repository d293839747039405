// Command promrules extracts the rule groups of the PrometheusRule in a rendered Helm chart
// (helm template on stdin) into a Prometheus rules file (stdout), for promtool check rules
// and promtool test rules (make monitoring-check).
//
// With -break NAME the expression of the alert NAME is replaced by one that never fires:
// promtool test rules must then fail, which shows that the alert has a test that expects it
// to fire (make monitoring-check breaks each alert in turn). -list prints the alerts' names.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

type manifest struct {
	Kind string `json:"kind"`
	Spec struct {
		Groups []map[string]any `json:"groups"`
	} `json:"spec"`
}

func main() {
	broken := flag.String("break", "", "replace this alert's expression with one that never fires")
	list := flag.Bool("list", false, "print the names of the alerts, one a line, instead of the rules")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, *broken, *list); err != nil {
		fmt.Fprintln(os.Stderr, "promrules:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer, broken string, list bool) error {
	dec := utilyaml.NewYAMLOrJSONDecoder(in, 4096)
	var groups []map[string]any
	for {
		var m manifest
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if m.Kind == "PrometheusRule" {
			groups = append(groups, m.Spec.Groups...)
		}
	}
	if len(groups) == 0 {
		return errors.New("no PrometheusRule in the input (render with metrics.prometheusRule.enabled=true)")
	}
	found := false
	for _, g := range groups {
		rules, _ := g["rules"].([]any)
		for _, r := range rules {
			rule, ok := r.(map[string]any)
			if !ok || rule["alert"] == nil {
				continue
			}
			if list {
				if _, err := fmt.Fprintln(out, rule["alert"]); err != nil {
					return err
				}
			}
			if broken != "" && rule["alert"] == broken {
				rule["expr"], found = "vector(1) == 0", true
			}
		}
	}
	if list {
		return nil
	}
	if broken != "" && !found {
		return fmt.Errorf("no alert %q", broken)
	}
	b, err := yaml.Marshal(map[string]any{"groups": groups})
	if err != nil {
		return err
	}
	_, err = out.Write(b)
	return err
}
