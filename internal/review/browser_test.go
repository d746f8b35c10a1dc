package review

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/plankit/plankit/plans/planstest"
)

// browser starts headless Chromium (Debian's chromium; .ci/run installs
// it) with a fresh profile and the network off, and returns a context for
// it and the URLs of the requests the page made. Without chromium the
// test is skipped, except in CI (CI=true), where it fails.
func browser(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("chromium is not installed (apt-get install -y chromium; .ci/run does it): %v", err)
		}
		t.Skipf("chromium is not installed (apt-get install -y chromium): %v", err)
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	var mu sync.Mutex
	var urls []string
	chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			urls = append(urls, e.Request.URL)
			mu.Unlock()
		}
	})
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	_, err = chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return ctx, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), urls...) }
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// TestReportInBrowser: the report of a real plan, opened from a file in
// Chromium with the network off, makes no request, lists every change
// with the right counts, filters by action, shows a change when its
// graph node is clicked, and is photographed.
func TestReportInBrowser(t *testing.T) {
	a := loadArchive(t, basicFixture(2).build(t, "stack.tfplan"), nil)
	var page bytes.Buffer
	if err := HTML(context.Background(), &page, []*Archive{a}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "plan.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, requests := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file), chromedp.WaitReady(chromedp.CSS(`#change-list[data-complete="true"]`))); err != nil {
		t.Fatal(err)
	}
	for _, u := range requests() {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page requested %s", u)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#change-list li.change").length`); n != 9 {
		t.Errorf("%d changes listed, want 9", n)
	}
	if got := eval[string](t, ctx, `document.querySelector('#total-counts tr[data-action="destroy"] td.num').textContent`); got != "1" {
		t.Errorf("destroy count %q, want 1", got)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll(".graph svg g.node").length`); n != 9 {
		t.Errorf("%d graph nodes, want 9", n)
	}
	// module.net's instances depend on terraform_data.base (through the
	// module call's argument): the layout engine drew those edges.
	if n := eval[int](t, ctx, `document.querySelectorAll(".graph svg g.edge").length`); n < 2 {
		t.Errorf("%d graph edges, want at least the two into module.net", n)
	}

	// Filter by action.
	eval[bool](t, ctx, `(() => { const s = document.getElementById("f-action"); s.value = "delete"; s.dispatchEvent(new Event("change")); return true })()`)
	visible := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#change-list li.change")).filter(li => !li.hidden).map(li => li.dataset.addr)`)
	if strings.Join(visible, ",") != "terraform_data.gone" {
		t.Errorf("the delete filter shows %v, want [terraform_data.gone]", visible)
	}
	if got := eval[string](t, ctx, `document.getElementById("shown").textContent`); got != "1 of 9 changes shown" {
		t.Errorf("the filter says %q", got)
	}

	// Click the graph node of terraform_data.added: its change is shown
	// (filters cleared, opened, selected).
	id := eval[string](t, ctx, `document.querySelector('li.change[data-addr="terraform_data.added"]').id.replace(/^c-/, "g-")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID(id))); err != nil {
		t.Fatal(err)
	}
	state := eval[[]any](t, ctx, `(() => { const li = document.querySelector('li.change[data-addr="terraform_data.added"]'); return [li.hidden, li.classList.contains("selected"), li.classList.contains("open") && li.querySelector("pre").textContent.includes("will be created"), document.querySelectorAll("#change-list li.selected").length] })()`)
	if state[0] != false || state[1] != true || state[2] != true || state[3] != float64(1) {
		t.Errorf("after the click the change is [hidden, selected, open, selected count] = %v, want [false true true 1]", state)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(t.TempDir(), "report.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(png) < 10000 {
		t.Errorf("the screenshot is %d bytes: blank?", len(png))
	}
	// REVIEW_SCREENSHOT=FILE keeps the docs' picture (docs/review-report.png):
	// the top of the page, summary and graph.
	if out := os.Getenv("REVIEW_SCREENSHOT"); out != "" {
		eval[bool](t, ctx, `window.scrollTo(0, 0); true`)
		top, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, top, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLargeReportLoadsFast: a report of 10,000 changes (the graph drawn
// per module) opens in Chromium in under 2 s, load event included.
// REVIEW_LARGE=1 runs it (it takes about half a minute to build).
func TestLargeReportLoadsFast(t *testing.T) {
	if os.Getenv("REVIEW_LARGE") == "" {
		t.Skip("set REVIEW_LARGE=1 to run the 10,000-change browser check")
	}
	p := planstest.LargePlan(10000)
	a := &Archive{Name: "large.tfplan", Plan: p, SHA256: strings.Repeat("0", 64), Workspace: "default", Backend: "local"}
	var page bytes.Buffer
	start := time.Now()
	if err := HTML(context.Background(), &page, []*Archive{a}); err != nil {
		t.Fatal(err)
	}
	t.Logf("report: %d bytes in %v", page.Len(), time.Since(start))
	file := filepath.Join(t.TempDir(), "plan.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, _ := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file), chromedp.WaitVisible(chromedp.CSS("#change-list"))); err != nil {
		t.Fatal(err)
	}
	ms := eval[float64](t, ctx, `(() => { const n = performance.getEntriesByType("navigation")[0]; return n.loadEventEnd || performance.now() })()`)
	t.Logf("loaded in %.0f ms", ms)
	if ms > 2000 {
		t.Errorf("the 10,000-change report took %.0f ms to load, over 2 s", ms)
	}
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(`#change-list[data-complete="true"]`))); err != nil {
		t.Fatal(err)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#change-list li.change").length`); n != 10000 {
		t.Errorf("%d changes listed, want 10000", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll(".graph svg g.node").length`); n != 3 {
		t.Errorf("%d graph nodes, want one per module (3)", n)
	}
	if got := eval[string](t, ctx, `document.getElementById("shown").textContent`); got != "10000 of 10000 changes shown" {
		t.Errorf("the page says %q", got)
	}
}
