package model

import (
	"testing"

	"gopkg.in/yaml.v3"
)

func TestYAMLScalar(t *testing.T) {
	for in, want := range map[string]string{"plain": "plain", "a: b": `"a: b"`, "yes": `"yes"`, "#x": `"#x"`,
		`say "hi"`: `say "hi"`, "- x": `"- x"`, "12": `"12"`, "1e5": `"1e5"`, "tab\there": `"tab\there"`} {
		got := YAMLScalar(in)
		if got != want {
			t.Errorf("YAMLScalar(%q) = %s, want %s", in, got, want)
		}
		var back string
		if err := yaml.Unmarshal([]byte("v: "+got), &struct{ V *string }{&back}); err != nil || back != in {
			t.Errorf("YAMLScalar(%q) = %s reads back as %q (%v)", in, got, back, err)
		}
	}
}
