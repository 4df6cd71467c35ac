/// The styles and the one script of the HTML documents: light and dark by the
/// reader's setting, printable, no fonts or images from anywhere. The script
/// only filters the report's claims; the page reads whole without it.
public enum HTMLPage {
    public static let style = """
        :root { color-scheme: light dark; --bg: #ffffff; --fg: #1d1d1f; --muted: #5f6368; --line: #d0d7de;
          --head: #f3f4f6; --link: #0a58ca; --pass: #1a7f37; --fail: #cf222e; --stale: #9a6700; --other: #57606a;
          --lacks: #8250df; --device: #116329; --simulator: #2da44e; --needs: #bc4c00; --untested: #8c959f;
          --s0: #0969da; --s1: #cf222e; --s2: #1a7f37; --s3: #8250df; --s4: #bc4c00; --s5: #1b7c83; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9da7b3; --line: #30363d; --head: #161b22; --link: #58a6ff;
            --pass: #3fb950; --fail: #f85149; --stale: #d29922; --other: #8b949e; --lacks: #bc8cff; --device: #2ea043;
            --simulator: #56d364; --needs: #f0883e; --untested: #6e7681;
            --s0: #58a6ff; --s1: #ff7b72; --s2: #3fb950; --s3: #d2a8ff; --s4: #ffa657; --s5: #39c5cf; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg);
          font: 15px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", system-ui, sans-serif; }
        main { padding: 16px 24px; }
        /* The page takes the window's width; prose keeps a line a reader can follow. */
        main > p, main > ul:not(.counts):not(.legend), main > ol { max-width: 80ch; }
        a { color: var(--link); }
        h1, h2, h3, h4 { line-height: 1.25; margin: 1.4em 0 0.5em; }
        code { font: 0.92em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--head);
          padding: 0 3px; border-radius: 3px; overflow-wrap: anywhere; }
        .table { overflow-x: auto; margin: 0.5em 0 1em; }
        table { border-collapse: collapse; font-size: 0.93em; }
        th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
        thead th { background: var(--head); position: sticky; top: 0; }
        tr:target, figure:target { outline: 2px solid var(--link); }
        li.task { list-style: none; }
        li.task .box { display: inline-block; width: 1.2em; }
        .bar { margin: 0 0 14px; }
        .bar svg { display: block; width: 100%; height: 20px; border: 1px solid var(--line); }
        .counts, .legend, .series-legend { display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; list-style: none;
          margin: 6px 0; font-size: 0.9em; }
        .key { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 4px; vertical-align: -1px; }
        .st-verified-on-device { fill: var(--device); background: var(--device); }
        .st-verified-in-simulator { fill: var(--simulator); background: var(--simulator); }
        .st-stale { fill: var(--stale); background: var(--stale); }
        .st-needs-device { fill: var(--needs); background: var(--needs); }
        .st-failing { fill: var(--fail); background: var(--fail); }
        .st-untested { fill: var(--untested); background: var(--untested); }
        span.state { font-weight: normal; font-size: 0.85em; color: var(--bg); padding: 0 4px; border-radius: 3px;
          white-space: nowrap; }
        .filters { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 8px;
          border: 1px solid var(--line); background: var(--head); margin: 1em 0; }
        .filters[hidden] { display: none; }
        .filter-help { flex-basis: 100%; margin: 0; font-size: 0.85em; color: var(--muted); }
        .filter-notice { flex-basis: 100%; margin: 0; color: var(--fail); font-weight: 600; }
        .filter-notice[hidden] { display: none; }
        .filter-banner { position: fixed; top: 0; left: 0; right: 0; z-index: 10; padding: 6px 12px; background: var(--head);
          border-bottom: 1px solid var(--line); box-shadow: 0 1px 4px color-mix(in srgb, var(--fg) 20%, transparent); }
        .filter-banner[hidden] { display: none; }
        .filter-banner .what { font-weight: 600; margin-right: 8px; }
        body.filtered { padding-top: 3em; }
        .matrix-box { overflow: auto; max-width: 100%; max-height: 85vh; margin: 0.5em 0 1em;
          border: 1px solid var(--line); }
        .matrix { border-collapse: separate; border-spacing: 0; }
        .matrix th, .matrix td { border-width: 0 1px 1px 0; }
        .matrix td { text-align: center; white-space: nowrap; font-size: 1.1em; }
        .matrix td a { text-decoration: none; color: inherit; }
        /* The header rows stay in view together; each column is as wide as its build (the whole in its title). */
        .matrix thead { position: sticky; top: 0; z-index: 2; }
        .matrix thead th { position: static; background: var(--head); }
        .matrix tr.groups th { text-align: left; font-size: 0.85em; min-width: 4.5em; }
        .matrix th.env { font-weight: normal; font-size: 0.8em; white-space: nowrap; padding: 2px 4px; text-align: center; }
        .matrix th.env.older { color: var(--muted); font-style: italic; }
        .matrix td { padding: 2px 6px; }
        .matrix .group-start { border-left: 2px solid var(--muted); }
        .matrix tbody th[scope="row"] { position: sticky; left: 0; z-index: 1; background: var(--bg); white-space: nowrap; }
        .matrix thead th.corner { position: sticky; left: 0; z-index: 3; vertical-align: bottom; }
        .matrix tr.group th { background: var(--head); text-align: left; }
        .matrix tr.group th span { position: sticky; left: 8px; }
        details.older > summary { cursor: pointer; margin: 0.5em 0; }
        .m-pass { color: var(--pass); } .m-fail { color: var(--fail); font-weight: bold; }
        .matrix td.m-fail { background: color-mix(in srgb, var(--fail) 14%, transparent); }
        .matrix td.m-pass { background: color-mix(in srgb, var(--pass) 12%, transparent); }
        .m-stale, .matrix td.m-stale { color: var(--stale); background: color-mix(in srgb, var(--stale) 14%, transparent); }
        .m-skipped { color: var(--other); } .m-retracted { color: var(--other); } .m-none { color: var(--line); }
        .m-lacks, .matrix td.m-lacks { color: var(--lacks); background: color-mix(in srgb, var(--lacks) 12%, transparent); }
        .matrix td.m-other-model { opacity: 0.55; }
        .mark { display: inline-block; min-width: 1.2em; text-align: center; font-weight: bold; }
        figure { margin: 0 0 1.5em; }
        figure.trend { max-width: 700px; }
        svg.chart { width: 100%; height: auto; display: block; }
        .chart text { fill: var(--muted); font-size: 11px; }
        .chart .grid { stroke: var(--line); stroke-width: 1; }
        .chart .line { fill: none; stroke-width: 2; }
        .chart .baseline { fill: none; stroke-width: 1.5; stroke-dasharray: 5 4; opacity: 0.7; }
        .chart .base-point { opacity: 0.7; }
        .chart .delta { stroke-width: 1; stroke-dasharray: 2 3; opacity: 0.8; }
        .swatch { width: 12px; height: 12px; vertical-align: -1px; }
        .series-0 { stroke: var(--s0); fill: var(--s0); } .series-1 { stroke: var(--s1); fill: var(--s1); }
        .series-2 { stroke: var(--s2); fill: var(--s2); } .series-3 { stroke: var(--s3); fill: var(--s3); }
        .series-4 { stroke: var(--s4); fill: var(--s4); } .series-5 { stroke: var(--s5); fill: var(--s5); }
        .series .line, .series .baseline { fill: none; }
        .tr-passing { fill: var(--pass); background: var(--pass); }
        .tr-failing { fill: var(--fail); background: var(--fail); }
        .tr-none { fill: var(--untested); background: var(--untested); }
        figure.state-trend { max-width: 700px; }
        .chart .expected rect { opacity: 0.14; stroke: none; }
        .chart .expected line { stroke-width: 1; stroke-dasharray: 6 3; }
        .key.expected { opacity: 0.45; }
        .key.expected.series-0 { background: var(--s0); } .key.expected.series-1 { background: var(--s1); }
        .key.expected.series-2 { background: var(--s2); } .key.expected.series-3 { background: var(--s3); }
        .key.expected.series-4 { background: var(--s4); } .key.expected.series-5 { background: var(--s5); }
        .chart .fail-mark { stroke: var(--fail); stroke-width: 2.5; fill: none; }
        /* Screenshots in a grid, each figure as wide as its picture, its words wrapping under it. */
        .across-builds .builds, .shots { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; margin: 0.5em 0 1em; }
        figure.shot { margin: 0; width: min-content; min-width: 10em; }
        figure.shot figcaption, figure.shot .name { display: block; font-size: 0.85em; overflow-wrap: anywhere; }
        figure.shot img { display: block; max-width: 320px; max-height: 360px; width: auto; height: auto;
          border: 1px solid var(--line); }
        @media (max-width: 600px) { main { padding: 8px; } body { font-size: 14px; } th, td { padding: 3px 5px; }
          /* On a phone the claim column takes at most a third of the box, the key cut with "…" (whole in its title),
             so results show beside it; the build headers wrap instead of widening every column. */
          .matrix tbody th[scope="row"] { max-width: 30vw; overflow: hidden; text-overflow: ellipsis; }
          .matrix tbody th[scope="row"] .state { display: none; } }
        @media print {
          :root { --bg: #ffffff; --fg: #000000; }
          .filters, .filter-banner { display: none; }
          body.filtered { padding-top: 0; }
          .table, .matrix-box { overflow: visible; max-height: none; }
          .matrix thead, .matrix thead th, .matrix tbody th[scope="row"] { position: static; }
          /* Nothing runs past the page: tables take its width and break long words; the matrix of the current
             builds shares the width among its columns; the every-build matrix, a screen's scrolling view, is left out. */
          main { max-width: none; padding: 0; }
          body { font-size: 9pt; }
          table { max-width: 100%; }
          th, td { overflow-wrap: anywhere; }
          .matrix { width: 100%; table-layout: fixed; }
          .matrix th.env, .matrix tr.groups th { min-width: 0; white-space: normal; font-size: 7pt; }
          .matrix th.corner, .matrix tbody th[scope="row"] { white-space: normal; width: 30%; }
          .matrix td { font-size: 8pt; padding: 1px; }
          details.older { display: none; }
          thead th { position: static; }
          tr, figure { break-inside: avoid; }
          details > div { display: block; }
          a { color: inherit; text-decoration: none; }
        }

        """

    /// Shows the filters, then hides the claims (their matrix rows and their
    /// rows in the claims' tables) that the chosen document, state, label,
    /// needed capability, model and owner leave out, and the groups left
    /// empty. The choice lives in the address
    /// (`#filter?document=duo-system-surfaces&state=failing&needs=standby`), so
    /// a filtered view is a link; a name or value the page does not know shows
    /// a notice saying which, and a fragment that cannot be read is passed over.
    public static let script = """
        (function () {
          "use strict";
          var form = document.getElementById("filters");
          if (!form) { return; }
          var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-claim]"));
          var groups = Array.prototype.slice.call(document.querySelectorAll("tr.group"));
          var notice = form.querySelector(".filter-notice");
          var banner = document.querySelector(".filter-banner");
          var glance = Array.prototype.slice.call(document.querySelectorAll("figure.bar[data-document]"));
          // The claims' tables, each under its area's heading under its document's.
          var claimTables = Array.prototype.slice.call(document.querySelectorAll("div.table")).filter(function (box) {
            return box.querySelector("tr[id^='claim-']");
          });
          // Maps without a prototype: a name from the address ("__proto__") is only a name.
          var aliases = Object.create(null);
          aliases.doc = "document";
          var names = ["document", "state", "label", "needs", "model", "owner"].filter(function (name) {
            return form.elements.namedItem(name);
          });
          function field(name) { return form.elements.namedItem(name); }
          function value(name) { var f = field(name); return f ? f.value : ""; }
          function decode(text) {
            try { return decodeURIComponent(text.split("+").join(" ")); } catch (malformed) { return null; }
          }
          function list(row, name) {
            try { var items = JSON.parse(row.getAttribute(name) || "[]"); return Array.isArray(items) ? items : []; }
            catch (malformed) { return []; }
          }
          function choices(f) { return Array.prototype.map.call(f.options, function (option) { return option.value; }); }
          function fromAddress() {
            var problems = [];
            // The address says the whole choice: what it leaves out is not filtered.
            names.forEach(function (name) { field(name).value = ""; });
            if (location.hash.indexOf("#filter?") === 0) {
              location.hash.slice(8).split("&").forEach(function (pair) {
                if (!pair) { return; }
                var at = pair.indexOf("="), name = decode(at < 0 ? pair : pair.slice(0, at));
                var given = at < 0 ? "" : decode(pair.slice(at + 1));
                if (name === null || given === null) { problems.push("'" + pair + "' cannot be read"); return; }
                name = aliases[name] || name;
                var f = names.indexOf(name) < 0 ? null : field(name);
                if (!f) { problems.push("no filter named '" + name + "' (the filters are " + names.join(", ") + ")"); return; }
                if (choices(f).indexOf(given) < 0) { problems.push("no " + name + " '" + given + "' in this report"); return; }
                f.value = given;
              });
            }
            notice.textContent = problems.length ? "Not applied: " + problems.join("; ") + "." : "";
            notice.hidden = problems.length === 0;
          }
          function toAddress() {
            var chosen = names.filter(function (name) { return value(name) !== ""; }).map(function (name) {
              return encodeURIComponent(name) + "=" + encodeURIComponent(value(name));
            });
            history.replaceState(null, "", chosen.length ? "#filter?" + chosen.join("&") : location.pathname + location.search);
          }
          function apply() {
            var wanted = Object.create(null);
            names.forEach(function (name) { wanted[name] = value(name); });
            var all = Object.create(null), shown = Object.create(null);
            rows.forEach(function (row) {
              var models = list(row, "data-models");
              var keep = (!wanted.document || row.getAttribute("data-document") === wanted.document)
                && (!wanted.state || row.getAttribute("data-state") === wanted.state)
                && (!wanted.label || row.getAttribute("data-label") === wanted.label)
                && (!wanted.needs || list(row, "data-needs").indexOf(wanted.needs) >= 0)
                && (!wanted.model || models.length === 0 || models.indexOf(wanted.model) >= 0)
                && (!wanted.owner || row.getAttribute("data-owner") === wanted.owner);
              row.hidden = !keep;
              all[row.getAttribute("data-claim")] = true;
              if (keep) { shown[row.getAttribute("data-claim")] = true; }
              var detail = document.getElementById("claim-" + row.getAttribute("data-anchor"));
              if (detail) { detail.hidden = !keep; }
            });
            groups.forEach(function (group) {
              var next = group.nextElementSibling, any = false;
              while (next && !next.classList.contains("group")) {
                if (!next.hidden) { any = true; }
                next = next.nextElementSibling;
              }
              group.hidden = !any;
            });
            var counted = Object.keys(shown).length + " of " + Object.keys(all).length + " claims";
            field("shown").value = counted + " shown";
            // At a glance counts what the filter keeps: a document's bar, its counts and its caption's total.
            glance.forEach(function (figure) {
              // Each claim once, though both matrices have a row of it.
              var name = figure.getAttribute("data-document"), counts = Object.create(null), seen = Object.create(null), total = 0;
              rows.forEach(function (row) {
                var claim = row.getAttribute("data-claim");
                if (row.hidden || seen[claim] || row.getAttribute("data-document") !== name
                    || row.getAttribute("data-label") === "not-published") { return; }
                seen[claim] = true;
                var state = row.getAttribute("data-state");
                counts[state] = (counts[state] || 0) + 1;
                total += 1;
              });
              Array.prototype.forEach.call(figure.querySelectorAll("li[data-state] .count"), function (count) {
                count.textContent = String(counts[count.parentNode.getAttribute("data-state")] || 0);
              });
              var x = 0;
              Array.prototype.forEach.call(figure.querySelectorAll("rect[class^='st-']"), function (rect) {
                var width = total ? 1000 * (counts[rect.getAttribute("class").slice(3)] || 0) / total : 0;
                rect.setAttribute("x", String(x));
                rect.setAttribute("width", String(width));
                x += width;
              });
              figure.hidden = wanted.document !== "" && wanted.document !== name;
            });
            // A table, area or document of claims with no match is hidden whole, its heading with it.
            claimTables.forEach(function (box) {
              box.hidden = !Array.prototype.some.call(box.querySelectorAll("tr[id^='claim-']"), function (row) { return !row.hidden; });
              var heading = box.previousElementSibling;
              if (heading && heading.tagName === "H4") { heading.hidden = box.hidden; }
            });
            Array.prototype.forEach.call(document.querySelectorAll("h3"), function (heading) {
              var next = heading.nextElementSibling, any = false, claims = false;
              while (next && next.tagName !== "H3" && next.tagName !== "H2") {
                if (claimTables.indexOf(next) >= 0) { claims = true; if (!next.hidden) { any = true; } }
                next = next.nextElementSibling;
              }
              if (claims) { heading.hidden = !any; }
            });
            var active = names.filter(function (name) { return wanted[name] !== ""; });
            banner.hidden = active.length === 0;
            document.body.classList.toggle("filtered", active.length > 0);
            banner.querySelector(".what").textContent = active.map(function (name) { return name + " " + wanted[name]; }).join(", ")
              + ": " + counted;
            banner.querySelector(".first").disabled = Object.keys(shown).length === 0;
          }
          function firstMatch() {
            var row = rows.filter(function (row) { return !row.hidden; })[0];
            if (row) { row.scrollIntoView({ block: "center" }); }
          }
          form.hidden = false;
          form.addEventListener("change", function () { notice.hidden = true; apply(); toAddress(); });
          banner.querySelector(".first").addEventListener("click", firstMatch);
          banner.querySelector(".clear").addEventListener("click", function () {
            names.forEach(function (name) { field(name).value = ""; });
            notice.hidden = true;
            apply();
            toAddress();
          });
          window.addEventListener("hashchange", function () { fromAddress(); apply(); });
          fromAddress();
          apply();
        })();

        """
}
