package cron

import (
	"testing"
	"time"
)

func BenchmarkParse(b *testing.B) {
	for _, expr := range []string{"0 0/30 9-17 ? * MON-FRI", "0 15 10 L * ? 2025-2030"} {
		b.Run(expr, func(b *testing.B) {
			for b.Loop() {
				if _, err := Parse(expr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkNext(b *testing.B) {
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		b.Fatal(err)
	}
	from := time.Date(2025, 6, 15, 12, 34, 56, 789e6, time.UTC)
	for _, expr := range []string{"*/5 * * * * ?", "0 0/30 9-17 ? * MON-FRI", "0 15 10 ? * 6#3", "0 0 0 LW * ?"} {
		e, err := Parse(expr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(expr, func(b *testing.B) {
			for b.Loop() {
				if _, ok := e.Next(from, shanghai); !ok {
					b.Fatal("no fire time")
				}
			}
		})
	}
}
