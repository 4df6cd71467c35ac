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
        main { max-width: 1200px; margin: 0 auto; padding: 16px; }
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
        span.state { font-weight: normal; font-size: 0.85em; color: var(--bg); padding: 0 4px; border-radius: 3px; }
        .filters { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 8px;
          border: 1px solid var(--line); background: var(--head); margin: 1em 0; }
        .filters[hidden] { display: none; }
        .matrix td { text-align: center; white-space: nowrap; font-size: 1.1em; }
        .matrix td a { text-decoration: none; color: inherit; }
        .matrix th.env { font-weight: normal; font-size: 0.85em; min-width: 9em; }
        .matrix tr.group th { background: var(--head); }
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
        figure.shot { margin: 0; }
        figure.shot img { display: block; max-width: 240px; max-height: 320px; height: auto; border: 1px solid var(--line); }
        @media (max-width: 600px) { main { padding: 8px; } body { font-size: 14px; } th, td { padding: 3px 5px; } }
        @media print {
          :root { --bg: #ffffff; --fg: #000000; }
          .filters { display: none; }
          .table { overflow: visible; }
          thead th { position: static; }
          tr, figure { break-inside: avoid; }
          details > div { display: block; }
          a { color: inherit; text-decoration: none; }
        }

        """

    /// Shows the filters, then hides the claims (their matrix rows and their
    /// rows in the claims' tables) that the chosen document, state, label and
    /// need leave out, and the groups left empty. The choice lives in the
    /// address (`#filter?state=failing&needs=1`), so a filtered view is a link.
    public static let script = """
        (function () {
          "use strict";
          var form = document.getElementById("filters");
          if (!form) { return; }
          var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-claim]"));
          var groups = Array.prototype.slice.call(document.querySelectorAll("tr.group"));
          var names = ["doc", "owner", "state", "label", "needs"].filter(function (name) { return form.elements.namedItem(name); });
          function field(name) { return form.elements.namedItem(name); }
          function value(name) {
            var f = field(name);
            if (!f) { return ""; }
            return f.type === "checkbox" ? (f.checked ? "1" : "") : f.value;
          }
          function decode(text) {
            try { return decodeURIComponent(text); } catch (malformed) { return null; }
          }
          function fromAddress() {
            if (location.hash.indexOf("#filter?") !== 0) { return; }
            location.hash.slice(8).split("&").forEach(function (pair) {
              var at = pair.indexOf("="), name = decode(at < 0 ? pair : pair.slice(0, at));
              var given = at < 0 ? "" : decode(pair.slice(at + 1));
              if (name === null || given === null || names.indexOf(name) < 0) { return; }
              var f = field(name);
              if (f.type === "checkbox") { f.checked = given === "1"; } else { f.value = given; }
            });
          }
          function toAddress() {
            var chosen = names.filter(function (name) { return value(name) !== ""; }).map(function (name) {
              return encodeURIComponent(name) + "=" + encodeURIComponent(value(name));
            });
            history.replaceState(null, "", chosen.length ? "#filter?" + chosen.join("&") : location.pathname + location.search);
          }
          function apply() {
            var doc = value("doc"), owner = value("owner"), state = value("state"), label = value("label");
            var needs = value("needs") === "1";
            var shown = 0;
            rows.forEach(function (row) {
              var keep = (!doc || row.getAttribute("data-document") === doc)
                && (!owner || row.getAttribute("data-owner") === owner)
                && (!state || row.getAttribute("data-state") === state)
                && (!label || row.getAttribute("data-label") === label)
                && (!needs || row.getAttribute("data-needs-device") === "yes");
              row.hidden = !keep;
              if (keep) { shown += 1; }
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
            field("shown").value = shown + " of " + rows.length + " claims shown";
          }
          form.hidden = false;
          form.addEventListener("change", function () { apply(); toAddress(); });
          fromAddress();
          apply();
        })();

        """
}
