import NavStore

extension ReportPage {
    /// The page's script: it reads the embedded data and draws it, computing nothing about
    /// navigation (labels, menus, changes and findings are in the data). Every stored text is set
    /// with `textContent`. Allowed by its hash in ``contentSecurityPolicy``.
    static let script = #"""
        (function () {
          'use strict';
          var data = JSON.parse(document.getElementById('navstore-data').textContent);
          function $(id) { return document.getElementById(id); }
          function el(tag, cls, text) {
            var node = document.createElement(tag);
            if (cls) node.className = cls;
            if (text !== undefined && text !== null) node.textContent = text;
            return node;
          }
          function iso(text, cls) { return el('bdi', cls, text); }
          // ms since the Unix epoch as ISO-8601 UTC text, 2026-11-30T10:00:00.000Z (Timestamp.format's form).
          function isoTime(ms) { return new Date(ms).toISOString(); }
          function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
          // `text`, when NavStore gave one, is the value's exact JSON text: an integer beyond 2^53
          // read as a JavaScript number would be rounded.
          function value(v, text) {
            if (text !== undefined && text !== null) return iso(text, 'json');
            if (v === null || v === undefined) return el('span', 'nil', 'nil');
            if (typeof v === 'string') return iso(v, 'str');
            return iso(JSON.stringify(v), 'json');
          }
          function append(parent, parts) {
            parts.forEach(function (p) { parent.appendChild(typeof p === 'string' ? document.createTextNode(p) : p); });
            return parent;
          }

          if (data.kind === 'index') { drawIndex(); return; }

          var versions = data.versions;
          var first = versions[0].version, last = versions[versions.length - 1].version;
          var current = null, room = null, menuOpen = true;
          // A version holds what changed from the one before; a keyframe (layers whole) comes every
          // few versions. The state of a version is its keyframe with the changes since applied, in
          // the order NavStore wrote them: nothing here resolves a label or a menu.
          var keyframes = [];
          versions.forEach(function (ver, i) { if (ver.layers) keyframes.push(i); });
          var frame = null, frameIndex = -1;
          function copyLayers(layers) {
            return layers.map(function (l) {
              return { modalInPresentation: l.modalInPresentation, navigationBarHidden: l.navigationBarHidden, entries: l.entries.slice() };
            });
          }
          function applyVersion(ver) {
            if (ver.layers) frame.layers = copyLayers(ver.layers);
            (ver.splices || []).forEach(function (op) {
              if (op[0] === frame.layers.length) frame.layers.push({ modalInPresentation: false, navigationBarHidden: false, entries: [] });
              var e = frame.layers[op[0]].entries;
              var rest = e.slice(op[1] + op[2]);
              e.length = op[1];
              for (var k = 3; k < op.length; k++) e.push(op[k]);
              for (var r = 0; r < rest.length; r++) e.push(rest[r]);
            });
            if (ver.layerCount !== undefined && ver.layerCount !== null) frame.layers.length = ver.layerCount;
            (ver.layerFields || []).forEach(function (f) {
              frame.layers[f[0]].modalInPresentation = f[1] === 1;
              frame.layers[f[0]].navigationBarHidden = f[2] === 1;
            });
            if (ver.view) frame.view = ver.view;
          }
          function frameAt(index) {
            var low = 0, high = keyframes.length - 1;
            while (low < high) { var mid = (low + high + 1) >> 1; if (keyframes[mid] <= index) low = mid; else high = mid - 1; }
            var key = keyframes[low];
            if (frame === null || frameIndex < key || frameIndex > index) {
              frame = { layers: [], view: {} };
              frameIndex = key - 1;
            }
            while (frameIndex < index) { frameIndex++; applyVersion(versions[frameIndex]); }
            return frame;
          }
          // The most rows of a menu, and entries of a layer, drawn: a deep stack draws its top.
          var MAX_DRAWN = 400;
          // The findings that start at each version, for the timeline's marks.
          var starting = {};
          data.findings.forEach(function (f, index) {
            if (!starting[f.firstVersion]) starting[f.firstVersion] = [];
            starting[f.firstVersion].push(index);
          });
          // Everything drawn for the version at `index`.
          function shown(index) {
            var ver = versions[index], f = frameAt(index), view = f.view;
            var out = { version: ver.version, type: ver.type, veto: ver.veto === true, changes: ver.changes, layers: f.layers,
              backButton: view.button === undefined || view.button === null ? null : data.buttons[view.button],
              noBackButton: view.noBackButton, noBackMenu: view.noBackMenu, tabs: view.tabs || null,
              backMenu: null, menuRows: 0, findings: [] };
            if (view.menu) {
              var top = f.layers[f.layers.length - 1].entries;
              out.menuRows = view.menu[1] - view.menu[0] + 1;
              out.backMenu = [];
              for (var p = view.menu[1]; p >= view.menu[0] && out.backMenu.length < MAX_DRAWN; p--) {
                var e = entry(top[p]);
                out.backMenu.push({ row: view.menu[1] - p + 1, entry: e.id, title: e.rowTitle, blank: e.rowTitle === '' });
              }
            }
            data.findings.forEach(function (fi, i) { if (fi.firstVersion <= ver.version && ver.version <= fi.lastVersion) out.findings.push(i); });
            return out;
          }
          document.title = 'Navigation report: ' + data.session;
          $('heading-session').textContent = data.session;
          // "version 9" for one version, not "versions 9–9"; "1 event", not "1 events".
          function span(a, b) { return a === b ? 'version ' + a : 'versions ' + a + '–' + b; }
          var sub = (data.name !== undefined && data.name !== null ? '“' + data.name + '” · ' : '') +
            (versions.length === data.latestVersion ? data.latestVersion + (data.latestVersion === 1 ? ' event' : ' events') :
              span(first, last) + ' of ' + data.latestVersion) +
            (data.baseVersion !== undefined && data.baseVersion !== null ?
              ' · truncated: the events up to version ' + data.baseVersion + ' are gone, their state is the starting point' : '') +
            ' · ' + (data.platform === data.recordedPlatform ? data.platform + ' rules' :
              'what if: ' + data.platform + ' rules (the session records ' + data.recordedPlatform + '; lint findings are of the recorded history)');
          $('subtitle').textContent = sub;
          var slider = $('slider');
          slider.min = String(first); slider.max = String(last);
          $('of').textContent = first === last ? 'of ' + first : 'of ' + first + '–' + last;

          function entry(index) { return data.entries[index]; }
          function field(e, name) {
            for (var i = 0; i < e.fields.length; i++) if (e.fields[i].name === name) return e.fields[i].value;
            return null;
          }

          function labelShown(button) {
            if (room === null) return button.label;
            var shown = button.steps[0].label;
            button.steps.forEach(function (s) { if (s.minWidth <= room) shown = s.label; });
            return shown;
          }

          function drawDevice(ver) {
            var sheets = $('sheets');
            clear(sheets);
            ver.layers.forEach(function (layer, i) {
              var top = i === ver.layers.length - 1;
              var sheet = el('div', 'sheet' + (i > 0 ? ' modal' : '') + (top ? ' top' : ' behind'));
              sheet.style.marginTop = (i * 14) + 'px';
              sheet.style.zIndex = String(i + 1);
              sheet.setAttribute('role', 'group');
              var notes = [];
              if (layer.modalInPresentation) notes.push('modal in presentation');
              if (layer.navigationBarHidden) notes.push('navigation bar hidden');
              sheet.setAttribute('aria-label', (i === 0 ? 'Base layer' : 'Modal layer ' + i) + (notes.length ? ' (' + notes.join(', ') + ')' : ''));
              var bar = el('div', 'bar');
              var lead = el('div', 'lead');
              var topEntry = layer.entries.length ? entry(layer.entries[layer.entries.length - 1]) : null;
              if (top && ver.backButton) {
                var button = el('button', 'back');
                button.type = 'button';
                button.setAttribute('aria-label', 'Back button');
                if (ver.backMenu) {
                  button.setAttribute('aria-expanded', menuOpen ? 'true' : 'false');
                  button.setAttribute('aria-controls', 'back-menu');
                  button.addEventListener('click', function () { menuOpen = !menuOpen; drawDevice(ver); });
                }
                if (ver.backButton.image) {
                  var glyph = el('span', 'glyph');
                  glyph.setAttribute('aria-hidden', 'true');
                  button.appendChild(glyph);
                }
                button.appendChild(iso(labelShown(ver.backButton)));
                lead.appendChild(button);
              }
              bar.appendChild(lead);
              var title = topEntry ? field(topEntry, 'title') : null;
              var titleNode = el('div', 'title');
              if (title !== null) titleNode.appendChild(iso(title));
              bar.appendChild(titleNode);
              if (layer.navigationBarHidden) {
                sheet.appendChild(el('p', 'hiddenbar', 'Navigation bar hidden (navigationBarHidden): no bar is drawn.'));
              } else {
                sheet.appendChild(bar);
              }
              var content = el('div', 'content');
              if (topEntry) {
                append(content.appendChild(el('p', 'screen')), ['Entry ', iso(topEntry.id)].concat(
                  topEntry.route !== undefined && topEntry.route !== null ? [' · route ', iso(topEntry.route)] : []));
              } else {
                content.appendChild(el('p', 'screen', 'Empty stack: nothing pushed yet.'));
              }
              if (top) {
                if (ver.backMenu) {
                  var menu = el('ol', 'menu');
                  menu.id = 'back-menu';
                  menu.setAttribute('aria-label', 'Back menu');
                  menu.hidden = !menuOpen;
                  ver.backMenu.forEach(function (row) {
                    var li = el('li', row.blank ? 'blank' : '');
                    if (!row.blank) li.appendChild(iso(row.title));
                    menu.appendChild(li);
                  });
                  if (ver.menuRows > ver.backMenu.length) menu.appendChild(el('li', 'more', '… and ' + (ver.menuRows - ver.backMenu.length) + ' more rows'));
                  content.appendChild(menu);
                } else if (ver.backButton) {
                  content.appendChild(el('p', 'nomenu', 'No back menu: ' + ver.noBackMenu + '.'));
                } else {
                  content.appendChild(el('p', 'nobutton', 'No back button, so no back menu: ' + ver.noBackButton + '.'));
                }
              }
              sheet.appendChild(content);
              sheets.appendChild(sheet);
            });
            drawRows(ver);
          }

          function drawRoom() {
            $('room-out').textContent = room === null ? 'any' : room + ' columns';
          }

          function drawRows(ver) {
            var holder = $('rows');
            clear(holder);
            if (!ver.backMenu) return;
            var table = el('table', 'rows');
            table.appendChild(el('caption', null, 'Back menu rows: what each one pops to'));
            var head = table.appendChild(el('thead')).appendChild(el('tr'));
            ['Row', 'Title', 'Pops to'].forEach(function (h) { var th = el('th', null, h); th.scope = 'col'; head.appendChild(th); });
            var body = table.appendChild(el('tbody'));
            ver.backMenu.forEach(function (row) {
              var tr = body.appendChild(el('tr'));
              tr.appendChild(el('td', null, String(row.row)));
              var cell = tr.appendChild(el('td'));
              if (row.blank) cell.appendChild(el('span', 'defect', 'blank row: its title is ""'));
              else cell.appendChild(iso(row.title));
              tr.appendChild(el('td')).appendChild(iso(row.entry));
            });
            if (ver.menuRows > ver.backMenu.length) {
              var more = body.appendChild(el('tr')).appendChild(el('td', 'more', 'Rows ' + (ver.backMenu.length + 1) + '–' + ver.menuRows + ' are not drawn (' + (ver.menuRows - ver.backMenu.length) + ' rows).'));
              more.colSpan = 3;
            }
            holder.appendChild(table);
          }

          function drawChanges(ver) {
            var list = $('changes');
            clear(list);
            if (!ver.changes.length) {
              list.appendChild(el('li', null, ver.veto ? 'Nothing changed: the event records a veto.' :
                ver.type === 'pop.cancelled' ? 'Nothing changed: the swipe back began and was cancelled.' :
                'Nothing changed in the stacks, the back button or the back menu.'));
              return;
            }
            ver.changes.forEach(function (c) {
              var li = el('li');
              switch (c.kind) {
                case 'layer-presented': append(li, ['Modal layer ' + c.layer + ' presented']); break;
                case 'layer-dismissed': append(li, ['Modal layer ' + c.layer + ' dismissed']); break;
                case 'modal-in-presentation': append(li, ['Layer ' + c.layer + ' modalInPresentation: ', value(c.before), ' → ', value(c.after)]); break;
                case 'navigation-bar-hidden': append(li, ['Layer ' + c.layer + ' navigationBarHidden: ', value(c.before), ' → ', value(c.after)]); break;
                case 'entry-added': append(li, ['Added ', iso(c.entry), ' to layer ' + c.layer + ' at position ' + c.position]); break;
                case 'entry-removed': append(li, ['Removed ', iso(c.entry), ' from layer ' + c.layer]); break;
                case 'field-changed': append(li, [iso(c.entry), ' ' + c.field + ': ', value(c.before, c.beforeText), ' → ', value(c.after, c.afterText)]); break;
                case 'back-button': append(li, ['Back button: ', c.before === null ? 'none' : value(c.before), ' → ', c.after === null ? 'none' : value(c.after)]); break;
                case 'back-menu': append(li, ['Back menu: ', rowsText(c.before), ' → ', rowsText(c.after)]); break;
                case 'menu-row-added': append(li, ['Back menu row ' + c.row + ' added: ', rowTitle(c.after), ' (pops to ', iso(c.entry), ')']); break;
                case 'menu-row-removed': append(li, ['Back menu row removed: ', rowTitle(c.before), ' (popped to ', iso(c.entry), ')']); break;
                case 'menu-row-changed': append(li, ['Back menu row ' + c.row + ' (', iso(c.entry), '): ', rowTitle(c.before), ' → ', rowTitle(c.after)]); break;
                default: append(li, [c.kind]);
              }
              list.appendChild(li);
            });
          }
          function rowsText(count) {
            if (count === null) return 'none';
            return count + (count === 1 ? ' row' : ' rows');
          }
          function rowTitle(title) {
            return title === '' ? el('span', 'defect', 'a blank row ("")') : value(title);
          }

          function drawFindings(ver) {
            var holder = $('findings');
            clear(holder);
            holder.appendChild(el('h2', null, 'Lint findings here'));
            if (!ver.findings.length) {
              holder.appendChild(el('p', 'none', data.findings.length ? 'No lint finding holds at this version.' : 'Lint finds nothing in this session.'));
              return;
            }
            var list = holder.appendChild(el('ul', 'findings'));
            ver.findings.forEach(function (index) {
              var f = data.findings[index];
              var li = list.appendChild(el('li', 'finding ' + f.severity));
              var head = li.appendChild(el('p'));
              head.appendChild(el('span', 'mark sev-' + f.severity, f.severity));
              head.appendChild(document.createTextNode(' '));
              var link = head.appendChild(el('a', null, f.rule));
              link.href = '#rule-' + f.rule;
              head.appendChild(document.createTextNode(' · ' + span(f.firstVersion, f.lastVersion) +
                (f.current ? ', still at the latest' : '')));
              li.appendChild(el('p')).appendChild(iso(f.message));
              var names = li.appendChild(el('p', null, 'Entries: '));
              f.entries.forEach(function (id, i) { if (i) names.appendChild(document.createTextNode(', ')); names.appendChild(iso(id)); });
              li.appendChild(el('p', null, 'Fix: ' + f.fix));
            });
          }

          function drawRules() {
            if (!data.rules.length) return;
            $('rules-section').hidden = false;
            var list = $('rules');
            data.rules.forEach(function (r) {
              var dt = list.appendChild(el('dt'));
              dt.id = 'rule-' + r.id;
              dt.appendChild(el('code', null, r.id));
              dt.appendChild(el('span', 'mark sev-' + r.severity, r.severity));
              var dd = list.appendChild(el('dd'));
              dd.appendChild(el('p', null, r.summary + '.'));
              dd.appendChild(el('p', null, 'Fix: ' + r.fix + '.'));
              dd.appendChild(el('p', 'source', 'Source: ' + r.source));
            });
          }

          function drawLayers(ver) {
            var holder = $('layers');
            clear(holder);
            if (ver.tabs) {
              var strip = holder.appendChild(el('p', 'tabs'));
              strip.appendChild(el('span', null, 'Tabs: '));
              ver.tabs.tabs.forEach(function (tab, i) {
                if (i > 0) strip.appendChild(el('span', null, ' | '));
                var name = tab.title === null || tab.title === '' ? tab.id : tab.title;
                strip.appendChild(el(i === ver.tabs.selected ? 'strong' : 'span', null, i === ver.tabs.selected ? '[' + name + ']' : name));
              });
            }
            ver.layers.forEach(function (layer, i) {
              var box = holder.appendChild(el('div', 'layer'));
              box.appendChild(el('h3', null, (i === 0 ? 'Layer 0 (base' : 'Layer ' + i + ' (modal' + (layer.modalInPresentation ? ', modal in presentation' : '')) + (layer.navigationBarHidden ? ', navigation bar hidden' : '') + ')'));
              if (!layer.entries.length) { box.appendChild(el('p', 'none', 'No entries.')); return; }
              var skipped = Math.max(0, layer.entries.length - MAX_DRAWN);
              if (skipped) box.appendChild(el('p', 'more', 'Positions 0–' + (skipped - 1) + ' (' + skipped + ' entries) are not drawn; the top ' + MAX_DRAWN + ' are.'));
              var list = box.appendChild(el('ol'));
              list.start = skipped;
              layer.entries.forEach(function (index, position) {
                if (position < skipped) return;
                var e = entry(index);
                var li = list.appendChild(el('li'));
                var details = li.appendChild(el('details'));
                var isTop = position === layer.entries.length - 1;
                details.open = isTop && i === ver.layers.length - 1;
                var summary = details.appendChild(el('summary'));
                append(summary, [iso(e.id)]);
                var title = field(e, 'title');
                if (title !== null) append(summary, [' ', value(title)]);
                if (position === 0) summary.appendChild(el('span', 'tag', 'root'));
                if (isTop) summary.appendChild(el('span', 'tag', 'top'));
                if (i === ver.layers.length - 1 && position === layer.entries.length - 2) summary.appendChild(el('span', 'tag', 'back item'));
                var dl = details.appendChild(el('dl'));
                function row(name, node) { dl.appendChild(el('dt', null, name)); dl.appendChild(el('dd')).appendChild(node); }
                row('route', value(e.route === undefined ? null : e.route));
                row('params', value(e.params === undefined ? null : e.params, e.paramsText));
                e.fields.forEach(function (f) { row(f.name, value(f.value, f.text)); });
                if (!e.fields.length) row('item', el('span', 'nil', 'every field unset'));
              });
            });
          }

          // The timeline draws only the rows in view (and a few around), so a long session stays fast.
          var ROW = 32, timeline = $('timeline'), list = $('events'), drawn = null;
          $('spacer').style.height = (versions.length * ROW) + 'px';
          function drawTimeline() {
            var start = Math.max(0, Math.floor(timeline.scrollTop / ROW) - 10);
            var end = Math.min(versions.length, start + Math.ceil((timeline.clientHeight || 480) / ROW) + 20);
            var key = start + ':' + end + ':' + current;
            if (key === drawn) return;
            drawn = key;
            clear(list);
            list.style.transform = 'translateY(' + (start * ROW) + 'px)';
            for (var i = start; i < end; i++) {
              var ver = versions[i];
              var a = el('a');
              a.href = '#v=' + ver.version;
              if (ver.version === current) a.setAttribute('aria-current', 'true');
              a.appendChild(el('span', 'v', String(ver.version)));
              var when = isoTime(ver.at);
              var t = a.appendChild(el('time', 't', when.slice(11, 19)));
              t.dateTime = when;
              a.appendChild(el('span', 'ty', ver.type));
              var severities = [];
              (starting[ver.version] || []).forEach(function (index) {
                var severity = data.findings[index].severity;
                if (severities.indexOf(severity) < 0) severities.push(severity);
              });
              severities.forEach(function (severity) { a.appendChild(el('span', 'mark sev-' + severity, severity)); });
              a.appendChild(iso(ver.summary, 's'));
              list.appendChild(el('li')).appendChild(a);
            }
          }
          var pending = false;
          timeline.addEventListener('scroll', function () {
            if (pending) return;
            pending = true;
            window.requestAnimationFrame(function () { pending = false; drawTimeline(); });
          });
          function reveal(index) {
            var y = index * ROW, h = timeline.clientHeight || 480;
            if (y < timeline.scrollTop) timeline.scrollTop = y;
            else if (y + ROW > timeline.scrollTop + h) timeline.scrollTop = y + ROW - h;
          }

          function select(v) {
            v = Math.max(first, Math.min(last, Math.floor(v)));
            if (v === current || isNaN(v)) return;
            current = v;
            var source = versions[v - first];
            var when = isoTime(source.at);
            var ver = shown(v - first);
            slider.value = String(v);
            $('version').textContent = String(v);
            $('time').textContent = when;
            $('time').dateTime = when;
            $('type').textContent = source.type;
            $('summary').textContent = source.summary;
            $('prev').disabled = v === first;
            $('next').disabled = v === last;
            drawDevice(ver);
            drawChanges(ver);
            drawFindings(ver);
            drawLayers(ver);
            reveal(v - first);
            drawTimeline();
            var hash = '#v=' + v;
            if (location.hash !== hash) {
              try { history.replaceState(null, '', hash); } catch (e) { location.hash = hash; }
            }
          }
          function fromHash() {
            var m = /^#v=(\d+)$/.exec(location.hash);
            return m ? parseInt(m[1], 10) : null;
          }

          slider.addEventListener('input', function () { select(parseInt(slider.value, 10)); });
          $('prev').addEventListener('click', function () { select(current - 1); });
          $('next').addEventListener('click', function () { select(current + 1); });
          $('room').addEventListener('input', function () {
            var r = parseInt($('room').value, 10);
            room = r >= parseInt($('room').max, 10) ? null : r;
            drawRoom();
            drawDevice(shown(current - first));
          });
          window.addEventListener('hashchange', function () { var v = fromHash(); if (v !== null) select(v); });
          document.addEventListener('keydown', function (event) {
            if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
            var tag = event.target && event.target.tagName;
            if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
            var to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: first, End: last }[event.key];
            if (to === undefined) return;
            event.preventDefault();
            select(to);
          });
          if (data.labelRoom !== undefined && data.labelRoom !== null) {
            // The room lint's width rules judged (report --width): the slider starts there.
            var roomInput = $('room');
            roomInput.max = String(Math.max(41, data.labelRoom + 1));
            roomInput.value = String(data.labelRoom);
            room = data.labelRoom;
          }
          drawRoom();
          drawRules();
          var wanted = fromHash();
          select(wanted === null ? last : wanted);

          function drawIndex() {
            var counted = data.sessions.length + (data.sessions.length === 1 ? ' session' : ' sessions');
            document.title = 'Navigation report: ' + counted;
            $('subtitle').textContent = counted;
            // The rows are in the HTML itself (plain links that work without this script).
          }
        })();
        """#
}
