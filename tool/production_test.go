package tool

import "testing"

func TestIsProduction(t *testing.T) {
	for name, want := range map[string]bool{
		"prod":                             true,
		"PROD":                             true,
		"production":                       true,
		"app_production":                   true,
		"prod-db.internal":                 true,
		"db.prod.internal":                 true,
		"shopProd":                         true,
		"prod1":                            true,
		"postgres://u@prod-db:5432/app":    true,
		"host=db dbname=prod":              true,
		"products":                         false,
		"reproduce":                        false,
		"staging":                          false,
		"productivity_db":                  false,
		"":                                 false,
		"dev":                              false,
		"preprod":                          false,
		"gke_acme_europe-west1_production": true,
		"workspace prod":                   true,
		"arn:aws:eks:eu-west-1:1:cluster/prod-eu": true,
	} {
		if got := IsProduction(name); got != want {
			t.Errorf("IsProduction(%q) = %v, want %v", name, got, want)
		}
	}
}
