// @spec SPEC-MAP-001

/*
 * The decision map page's own style and script. Plain ES2017 that runs in any current
 * browser without a build step; the data arrives as JSON in a <script type="application/json">
 * element, and every value from it reaches the page through textContent, never as HTML.
 */

export const PAGE_CSS = `
*{box-sizing:border-box}
html,body{margin:0;height:100%;font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
#app{display:grid;grid-template-columns:250px 1fr 340px;height:100vh}
#side{border-right:1px solid #d0d7de;overflow:auto;padding:10px;background:#f6f8fa}
#side h1{font-size:15px;margin:0 0 2px}
#side .sub{color:#59636e;font-size:11px;margin-bottom:8px;word-break:break-all}
#search{width:100%;padding:6px 8px;border:1px solid #d0d7de;border-radius:6px;font:inherit}
fieldset{border:0;margin:10px 0 0;padding:0}
legend{font-weight:600;font-size:12px;text-transform:uppercase;color:#59636e;margin-bottom:2px}
label.f{display:flex;align-items:center;gap:6px;padding:1px 0;cursor:pointer}
label.f .n{margin-left:auto;color:#59636e;font-size:11px}
.sw{display:inline-block;width:11px;height:11px;border-radius:50%;border:2px solid transparent}
#counts{margin-top:10px;color:#59636e;font-size:12px}
#cy{position:relative;min-width:0}
#panel{border-left:1px solid #d0d7de;overflow:auto;padding:12px}
#panel .empty{color:#59636e}
#panel h2{font-size:15px;margin:0 0 4px}
#panel .id{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;color:#59636e}
#panel h3{font-size:12px;text-transform:uppercase;color:#59636e;margin:12px 0 4px}
#panel ul{margin:0;padding-left:18px}
#panel code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;word-break:break-all}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:11px;margin-right:4px;background:#eaeef2}
.st-stale{background:#ffebe9;color:#a40e26}.st-moved{background:#fff1e5;color:#953800}.st-fresh{background:#dafbe1;color:#116329}
a.rel{color:#0969da;cursor:pointer;text-decoration:none}a.rel:hover{text-decoration:underline}
#warn{color:#953800;font-size:11px;margin-top:8px}
button{font:inherit;padding:3px 8px;border:1px solid #d0d7de;border-radius:6px;background:#fff;cursor:pointer}
`;

export const PAGE_JS = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('map-data').textContent);
  var PALETTE = ['#0969da', '#8250df', '#1a7f37', '#bf8700', '#cf222e', '#1b7c83', '#bc4c00', '#6e7781', '#e85aad', '#4d2d00', '#0550ae', '#116329'];
  var typeColor = {};
  data.types.forEach(function (t, i) { typeColor[t] = PALETTE[i % PALETTE.length]; });
  var STALE_COLOR = { fresh: '#1a7f37', moved: '#bc4c00', stale: '#cf222e', unstamped: '#afb8c1', unanchored: '#d0d7de', 'not judged': '#d0d7de' };
  var EDGE_COLOR = { link: '#8c959f', requires: '#24292f', supersedes: '#cf222e', depends_on: '#0969da', conflicts_with: '#bc4c00', caused_by: '#8250df', co_decided: '#1b7c83' };
  var byId = {};
  data.nodes.forEach(function (n) { byId[n.id] = n; });
  var big = data.nodes.length > 400;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  var elements = [];
  data.nodes.forEach(function (n) {
    elements.push({ group: 'nodes', data: { id: n.id, label: n.id, color: typeColor[n.type] || '#6e7781', border: STALE_COLOR[n.staleness] || '#d0d7de', bw: n.staleness === 'stale' ? 6 : n.staleness === 'moved' || n.staleness === 'fresh' ? 4 : 2 },
      position: { x: n.x, y: n.y }, classes: (n.inactive ? 'inactive ' : '') + 'st-' + n.staleness.replace(' ', '-') });
  });
  data.edges.forEach(function (e) {
    elements.push({ group: 'edges', data: { id: e.id, source: e.source, target: e.target, kind: e.kind, color: EDGE_COLOR[e.kind] || '#8c959f', label: e.kind === 'link' ? (e.label || 'link') : e.kind } , classes: 'k-' + e.kind });
  });

  var t0 = performance.now();
  var cy = cytoscape({
    container: document.getElementById('cy'),
    elements: elements,
    layout: big ? { name: 'preset', fit: true, padding: 30 } : { name: 'cose', randomize: false, animate: false, fit: true, padding: 40, nodeRepulsion: function () { return 400000; }, idealEdgeLength: function () { return 90; }, numIter: 1500 },
    minZoom: 0.05,
    maxZoom: 3,
    textureOnViewport: big,
    hideEdgesOnViewport: big,
    pixelRatio: big ? 1 : 'auto',
    style: [
      { selector: big ? 'node.lbl' : 'node', style: { label: 'data(label)' } },
      { selector: 'node', style: { 'background-color': 'data(color)', 'border-color': 'data(border)', 'border-width': 'data(bw)', 'font-size': 11, 'text-valign': 'bottom', 'text-margin-y': 3, width: 22, height: 22, 'min-zoomed-font-size': 5 } },
      { selector: 'node.inactive', style: { opacity: 0.45, 'border-style': 'dashed', shape: 'round-rectangle' } },
      { selector: 'edge', style: { width: 1.5, 'line-color': 'data(color)', 'target-arrow-color': 'data(color)', 'target-arrow-shape': 'triangle', 'curve-style': big ? 'haystack' : 'bezier', 'arrow-scale': 0.8, opacity: 0.8 } },
      { selector: 'edge.k-supersedes', style: { 'line-style': 'dashed', width: 2.5 } },
      { selector: 'edge.k-conflicts_with', style: { 'line-style': 'dotted', width: 2.5 } },
      { selector: 'edge.show-label', style: { label: 'data(label)', 'font-size': 8, 'text-rotation': 'autorotate', color: '#59636e', 'text-background-color': '#fff', 'text-background-opacity': 1 } },
      { selector: 'node:selected', style: { 'overlay-color': '#0969da', 'overlay-opacity': 0.25, 'overlay-padding': 6 } },
      { selector: '.faded', style: { opacity: 0.12 } },
      { selector: '.hidden', style: { display: 'none' } },
      { selector: 'node.match', style: { 'underlay-color': '#fff8c5', 'underlay-opacity': 1, 'underlay-padding': 8 } }
    ]
  });

  // filters: one checkbox per value of each facet, all on at first
  var FACETS = [['type', 'Type'], ['status', 'Status'], ['domain', 'Domain'], ['staleness', 'Staleness']];
  var allowed = {};
  var filtersEl = document.getElementById('filters');
  FACETS.forEach(function (f) {
    var key = f[0];
    var counts = {};
    data.nodes.forEach(function (n) { var v = n[key] || '(none)'; counts[v] = (counts[v] || 0) + 1; });
    var values = Object.keys(counts);
    if (key === 'type') values = data.types.filter(function (t) { return counts[t]; });
    else values.sort();
    allowed[key] = {};
    var fs = el('fieldset', { 'data-facet': key });
    fs.appendChild(el('legend', null, f[1]));
    values.forEach(function (v) {
      allowed[key][v] = true;
      var lab = el('label', { class: 'f' });
      var cb = el('input', { type: 'checkbox', 'data-facet': key, value: v });
      cb.checked = true;
      cb.addEventListener('change', function () { allowed[key][v] = cb.checked; applyFilters(); });
      lab.appendChild(cb);
      if (key === 'type') { var sw = el('span', { class: 'sw' }); sw.style.background = typeColor[v]; lab.appendChild(sw); }
      if (key === 'staleness') { var sw2 = el('span', { class: 'sw' }); sw2.style.borderColor = STALE_COLOR[v] || '#d0d7de'; lab.appendChild(sw2); }
      lab.appendChild(el('span', null, v));
      lab.appendChild(el('span', { class: 'n' }, String(counts[v])));
      fs.appendChild(lab);
    });
    filtersEl.appendChild(fs);
  });

  var countsEl = document.getElementById('counts');
  function visibleNode(n) {
    return FACETS.every(function (f) { return allowed[f[0]][n[f[0]] || '(none)']; });
  }
  var hiddenIds = {};
  function applyFilters() {
    var shown = 0;
    var hide = [];
    var show = [];
    data.nodes.forEach(function (n) {
      var ok = visibleNode(n);
      if (ok) shown++;
      if (!ok && !hiddenIds[n.id]) { hiddenIds[n.id] = true; hide.push(n.id); }
      else if (ok && hiddenIds[n.id]) { delete hiddenIds[n.id]; show.push(n.id); }
    });
    if (hide.length || show.length) {
      cy.batch(function () {
        hide.forEach(function (id) { cy.getElementById(id).addClass('hidden'); });
        show.forEach(function (id) { cy.getElementById(id).removeClass('hidden'); });
      });
    }
    var edges = 0;
    data.edges.forEach(function (e) { if (!hiddenIds[e.source] && !hiddenIds[e.target]) edges++; });
    countsEl.textContent = shown + ' of ' + data.nodes.length + ' records, ' + edges + ' edges shown';
    document.body.setAttribute('data-visible-nodes', String(shown));
  }

  var search = document.getElementById('search');
  function hay(n) { return (n.id + ' ' + n.title + ' ' + n.summary + ' ' + n.keywords.join(' ') + ' ' + n.domain).toLowerCase(); }
  function runSearch() {
    var q = search.value.trim().toLowerCase();
    var hits = [];
    cy.batch(function () {
      cy.elements().removeClass('faded match');
      if (!q) return;
      cy.nodes().forEach(function (node) { if (hay(byId[node.id()]).indexOf(q) >= 0) hits.push(node); });
      var set = cy.collection(hits);
      cy.elements().not(set).not(set.edgesWith(set)).addClass('faded');
      set.addClass('match');
    });
    document.body.setAttribute('data-search-hits', String(hits.length));
    return hits;
  }
  search.addEventListener('input', runSearch);
  search.addEventListener('keydown', function (ev) {
    if (ev.key !== 'Enter') return;
    var hits = runSearch().filter(function (n) { return !hiddenIds[n.id()]; });
    if (hits.length) select(hits[0].id(), true);
  });

  var panel = document.getElementById('panel');
  function section(title, items, render) {
    if (!items.length) return;
    panel.appendChild(el('h3', null, title));
    var ul = el('ul');
    items.forEach(function (it) { var li = el('li'); render(li, it); ul.appendChild(li); });
    panel.appendChild(ul);
  }
  function relLink(parent, id) {
    var a = el('a', { class: 'rel', 'data-id': id }, id);
    a.addEventListener('click', function () { select(id, true); });
    parent.appendChild(a);
    if (byId[id]) parent.appendChild(document.createTextNode(' ' + byId[id].title));
  }
  function code(parent, text) { parent.appendChild(el('code', null, text)); }
  function showPanel(n) {
    panel.textContent = '';
    panel.setAttribute('data-id', n.id);
    panel.appendChild(el('div', { class: 'id' }, n.id + ' \u00b7 ' + n.type + (n.domain ? ' \u00b7 ' + n.domain : '')));
    panel.appendChild(el('h2', null, n.title));
    var b = el('div');
    b.appendChild(el('span', { class: 'badge' }, n.status || 'no status'));
    b.appendChild(el('span', { class: 'badge st-' + n.staleness.replace(' ', '-') }, n.staleness));
    if (n.inactive) b.appendChild(el('span', { class: 'badge' }, 'inactive'));
    if (n.provenance && n.provenance.confidence) b.appendChild(el('span', { class: 'badge' }, n.provenance.confidence));
    panel.appendChild(b);
    var pv = n.provenance || {};
    var who = [pv.source, pv.owner, pv.session_id ? 'session ' + pv.session_id : '', pv.commit ? 'at ' + pv.commit.slice(0, 12) : ''].filter(Boolean).join(' \u00b7 ');
    if (who) panel.appendChild(el('p', { class: 'summary' }, who));
    if (n.summary) panel.appendChild(el('p', { class: 'summary' }, n.summary));
    var f = el('p'); code(f, n.file); panel.appendChild(f);
    section('Superseded by', n.supersededBy, relLink);
    var outs = data.edges.filter(function (e) { return e.source === n.id; });
    var ins = data.edges.filter(function (e) { return e.target === n.id; });
    // an edge the other record's text states ("Superseded by" in the older record) says so
    function said(li, e) { if (e.statedBy) li.appendChild(document.createTextNode(' (as ' + e.statedBy + '\u2019s text says)')); }
    section('Points to', outs, function (li, e) { li.appendChild(document.createTextNode((e.kind === 'link' ? (e.label || 'link') : e.kind) + ' ')); relLink(li, e.target); said(li, e); });
    section('Pointed at by', ins, function (li, e) { li.appendChild(document.createTextNode((e.kind === 'link' ? (e.label || 'link') : e.kind) + ' from ')); relLink(li, e.source); said(li, e); });
    section('Anchors', n.anchors, code);
    section('Paths', n.paths, code);
    section('Mentioned code', n.mentions, code);
    section('Drift', n.drift, function (li, d) { code(li, d.anchor); li.appendChild(document.createTextNode(' ' + d.state + (d.note ? ' \u2014 ' + d.note : ''))); });
    section('Commits that made it stale', n.commits, function (li, c) {
      code(li, c.id.slice(0, 10));
      li.appendChild(document.createTextNode(' ' + c.subject + ' \u2014 ' + c.author + ', ' + c.date.slice(0, 10)));
    });
  }
  function select(id, center) {
    var node = cy.getElementById(id);
    if (!node || node.empty()) return;
    cy.$(':selected').unselect();
    node.select();
    node.closedNeighborhood('node').addClass('lbl');
    cy.edges().removeClass('show-label');
    node.connectedEdges().addClass('show-label');
    showPanel(byId[id]);
    if (center) cy.animate({ center: { eles: node }, zoom: Math.max(cy.zoom(), 0.9) }, { duration: 150 });
  }
  cy.on('tap', 'node', function (ev) { select(ev.target.id(), false); });
  cy.on('tap', function (ev) {
    if (ev.target !== cy) return;
    cy.$(':selected').unselect();
    cy.edges().removeClass('show-label');
  });
  // a large map labels only what is on screen once zoomed in: measuring 2,000 labels up front
  // costs more than the whole rest of the first render
  if (big) {
    var labelTimer;
    cy.on('viewport', function () {
      clearTimeout(labelTimer);
      labelTimer = setTimeout(function () {
        cy.batch(function () {
          cy.nodes('.lbl').not(':selected').removeClass('lbl');
          if (cy.zoom() < 0.6) return;
          var ext = cy.extent();
          cy.nodes().filter(function (n) {
            var p = n.position();
            return p.x >= ext.x1 && p.x <= ext.x2 && p.y >= ext.y1 && p.y <= ext.y2;
          }).addClass('lbl');
        });
      }, 120);
    });
  }
  document.getElementById('fit').addEventListener('click', function () { cy.fit(cy.nodes(':visible'), 30); });

  if (data.warnings.length) document.getElementById('warn').textContent = data.warnings.join(' ');
  applyFilters();
  window.gitCtxMap = { cy: cy, data: data, select: select, applyFilters: applyFilters };
  cy.ready(function () {
    document.body.setAttribute('data-ready', 'true');
    document.body.setAttribute('data-ready-ms', String(Math.round(performance.now() - t0)));
  });
})();
`;
