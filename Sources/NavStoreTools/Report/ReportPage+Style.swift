import NavStore

extension ReportPage {
    /// The page's style sheet: light and dark schemes (`prefers-color-scheme`), one column below
    /// 760 px, readable at 320 px. Allowed by its hash in ``contentSecurityPolicy``.
    static let style = #"""
        :root{--bg:#f2f2f7;--card:#fff;--text:#1c1c1e;--muted:#6c6c70;--line:#d1d1d6;--tint:#007aff;--bar:#f9f9f9e6;--sel:#dbe9ff;--warn:#b25000;--err:#c4001a;--info:#3c6e9e;--sheet:#e5e5ea;font-family:-apple-system,system-ui,"Segoe UI",Roboto,sans-serif;color-scheme:light dark}
        @media (prefers-color-scheme:dark){:root{--bg:#000;--card:#1c1c1e;--text:#f2f2f7;--muted:#98989f;--line:#3a3a3c;--tint:#0a84ff;--bar:#1c1c1ef0;--sel:#0a3a73;--warn:#ff9f0a;--err:#ff453a;--info:#64a8ff;--sheet:#2c2c2e}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--text);line-height:1.4;font-size:16px}
        header,main{max-width:1200px;margin:0 auto;padding:0 12px}
        h1{font-size:1.3rem;margin:12px 0 2px;overflow-wrap:anywhere}
        h2{font-size:1.05rem;margin:0 0 8px}
        h3{font-size:.95rem;margin:10px 0 4px}
        #subtitle,.hint,.none{color:var(--muted);font-size:.9rem;margin:2px 0 8px}
        bdi{unicode-bidi:isolate;white-space:pre-wrap;overflow-wrap:anywhere}
        code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
        a{color:var(--tint)}
        button,input{font:inherit;color:inherit}
        :focus-visible{outline:3px solid var(--tint);outline-offset:2px}
        section{background:var(--card);border-radius:12px;padding:12px;margin:0 0 12px;min-width:0}
        .controls{position:sticky;top:0;z-index:5;box-shadow:0 1px 0 var(--line)}
        .stepper{display:flex;gap:8px;align-items:center}
        .stepper input{flex:1;min-width:0}
        .stepper button{border:1px solid var(--line);background:var(--bg);border-radius:8px;min-width:44px;min-height:36px;cursor:pointer}
        .now{margin:6px 0 0;overflow-wrap:anywhere}
        #version{font-weight:700;font-size:1.15em}
        .summary{margin:2px 0 0}
        .grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px;align-items:start}
        .grid>section{margin:0}
        .device{grid-row:span 2}
        .timeline-section{grid-column:1/-1}
        @media (max-width:760px){.grid{grid-template-columns:minmax(0,1fr)}.device{grid-row:auto}}
        .sheets{display:grid;background:#000;border-radius:18px;padding:6px;min-height:260px}
        .sheet{grid-area:1/1;position:relative;background:var(--card);border-radius:14px;overflow:hidden;display:flex;flex-direction:column;min-width:0}
        .sheet.behind{filter:brightness(.75);transform:scale(.96);transform-origin:top center}
        .sheet.modal{box-shadow:0 -2px 10px #0006}
        .bar{display:grid;grid-template-columns:minmax(0,1fr) auto minmax(0,1fr);align-items:center;min-height:44px;padding:0 8px;background:var(--bar);border-bottom:1px solid var(--line);gap:4px}
        .bar .lead{grid-column:1;min-width:0;display:flex}
        .bar .title{grid-column:2;font-weight:600;text-align:center;max-width:60vw;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .bar .title bdi{white-space:pre}
        .back{display:inline-flex;align-items:center;gap:3px;border:0;background:none;color:var(--tint);padding:4px 2px;cursor:pointer;max-width:100%;min-width:0;font-size:1.05rem}
        .back::before{content:"\2039";font-size:2rem;line-height:1;margin-top:-4px;font-weight:300}
        .back bdi{white-space:pre;overflow:hidden;text-overflow:ellipsis}
        .back .glyph{display:inline-block;width:18px;height:18px;border:2px solid currentColor;border-radius:4px;flex:none}
        .content{position:relative;flex:1;padding:8px 10px 12px;color:var(--muted);font-size:.85rem;min-height:120px}
        .content .screen{margin:0 0 6px;overflow-wrap:anywhere}
        .menu{list-style:none;margin:0;padding:4px 0;width:min(260px,92%);background:var(--card);border:1px solid var(--line);border-radius:12px;box-shadow:0 8px 24px #0004;color:var(--text);font-size:1rem}
        .menu li{min-height:40px;padding:9px 14px;border-top:1px solid var(--line);overflow-wrap:anywhere}
        .menu li:first-child{border-top:0}
        .menu li bdi{white-space:pre-wrap}
        .menu li.blank{background:repeating-linear-gradient(135deg,transparent 0 6px,#ff3b3022 6px 12px);outline:2px dashed var(--err);outline-offset:-3px}
        .menu li.blank::after{content:"blank row (defect)";float:right;color:var(--err);font-size:.75rem}
        .nomenu,.nobutton{font-size:.85rem;color:var(--muted);margin:4px 0}
        .hiddenbar{margin:0;min-height:20px;padding:2px 10px;font-size:.75rem;color:var(--muted);border-bottom:1px dashed var(--line)}
        .room{font-size:.85rem;color:var(--muted);display:flex;flex-wrap:wrap;gap:6px;align-items:center}
        .room input{flex:1;min-width:120px}
        table{border-collapse:collapse;width:100%;font-size:.85rem}
        caption{text-align:left;font-weight:600;padding:4px 0}
        th,td{text-align:left;border-bottom:1px solid var(--line);padding:4px 6px;vertical-align:top;overflow-wrap:anywhere}
        .defect{color:var(--err);font-weight:600}
        .changes{margin:0;padding-left:20px}
        .changes li{margin:2px 0;overflow-wrap:anywhere}
        .nil{color:var(--muted);font-style:italic}
        .str::before,.str::after{content:"\""}
        .str{white-space:pre-wrap}
        .layer{border:1px solid var(--line);border-radius:10px;padding:6px 8px;margin:0 0 8px}
        .layer h3{margin:0 0 4px}
        .layer ol{margin:0;padding-left:22px}
        .layer li{margin:0 0 4px}
        details summary{cursor:pointer;overflow-wrap:anywhere}
        dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 10px;margin:4px 0 6px;font-size:.85rem}
        dt{color:var(--muted)}
        dd{margin:0;overflow-wrap:anywhere}
        .tag{display:inline-block;font-size:.7rem;border:1px solid var(--line);border-radius:6px;padding:0 4px;margin-left:4px;color:var(--muted)}
        .timeline{max-height:min(60vh,480px);overflow:auto;border:1px solid var(--line);border-radius:8px}
        .spacer{position:relative}
        .events{list-style:none;margin:0;padding:0;position:absolute;left:0;right:0;top:0}
        .events li{height:32px}
        .events a{display:flex;gap:8px;align-items:center;height:32px;padding:0 8px;color:var(--text);text-decoration:none;border-bottom:1px solid var(--line);white-space:nowrap;overflow:hidden}
        .events a[aria-current]{background:var(--sel);font-weight:600}
        .events .v{min-width:3.5em;text-align:right;font-variant-numeric:tabular-nums;color:var(--muted)}
        .events .t{color:var(--muted);font-size:.8rem}
        .events .ty{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.8rem}
        .events .s{overflow:hidden;text-overflow:ellipsis;white-space:pre;min-width:0;flex:1}
        .mark{font-size:.7rem;border-radius:6px;padding:0 5px;color:#fff;flex:none}
        .sev-error{background:var(--err)}.sev-warning{background:var(--warn)}.sev-info{background:var(--info)}
        .finding{border-left:4px solid var(--line);padding:4px 8px;margin:6px 0}
        .finding.sev-error,.finding.sev-warning,.finding.sev-info{background:none}
        .finding.error{border-color:var(--err)}.finding.warning{border-color:var(--warn)}.finding.info{border-color:var(--info)}
        .finding p{margin:2px 0;font-size:.85rem}
        .findings{list-style:none;margin:0;padding:0}
        .rules-section{grid-column:1/-1}
        .rules{display:block;font-size:.85rem}
        .rules dt{margin-top:8px;display:flex;gap:8px;align-items:center}
        .rules dd p{margin:2px 0}
        .source{color:var(--muted);overflow-wrap:anywhere}
        td .mark{margin-right:4px}
        @media (max-width:480px){.events .t{display:none}.hint{display:none}}
        """#
}
