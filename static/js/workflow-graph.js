/*
 * xxl-admin-go console: the workflow graph (templates/shared/workflow.html).
 *
 * The pages work without this script: the editor is a form with a node
 * table and an edge list, the run page has tables of nodes and edges.
 * With it, the graph is drawn as SVG, laid out by the vendored dagre:
 *
 * - on the editor, from the node rows and the edge list as they are typed;
 *   clicking a node and then another adds the edge "first -> second";
 *   "Add a node" adds a row with the next free id;
 * - on the run page, from the page data: each node coloured by its state
 *   and linking to its current log (the log detail page).
 *
 * Names, labels and parameters are only ever set as text (textContent).
 */
(function (window) {
  'use strict';

  var document = window.document;
  var SVG = 'http://www.w3.org/2000/svg';
  var root = document.getElementById('xj-wf-graph');
  if (!root || !window.dagre) {
    return;
  }
  var dagre = window.dagre;
  var page = document.body.getAttribute('data-page');
  var data = {};
  try {
    data = JSON.parse((document.getElementById('page-data') || {}).textContent || '{}') || {};
  } catch (e) {
    data = {};
  }

  var NODE_W = 160;
  var NODE_H = 36;

  function svgEl(name, attrs) {
    var e = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (k) {
      e.setAttribute(k, String(attrs[k]));
    });
    return e;
  }

  function clip(s, n) {
    return s.length > n ? s.slice(0, n - 1) + '…' : s;
  }

  // draw lays out and draws nodes ({id, text, state, href, picked}) and
  // edges ({from, to}); onPick(id) is called when a node is clicked.
  function draw(nodes, edges, onPick) {
    while (root.firstChild) {
      root.removeChild(root.firstChild);
    }
    if (nodes.length === 0) {
      return;
    }
    var g = new dagre.graphlib.Graph();
    g.setGraph({ rankdir: 'LR', nodesep: 16, ranksep: 48, marginx: 12, marginy: 12 });
    g.setDefaultEdgeLabel(function () { return {}; });
    nodes.forEach(function (n) {
      g.setNode(String(n.id), { width: NODE_W, height: NODE_H });
    });
    edges.forEach(function (e) {
      var a = String(e.from);
      var b = String(e.to);
      if (a !== b && g.hasNode(a) && g.hasNode(b)) {
        g.setEdge(a, b);
      }
    });
    dagre.layout(g);
    var size = g.graph();
    var svg = svgEl('svg', { width: Math.ceil(size.width || 0), height: Math.ceil(size.height || 0), 'class': 'xj-wf-svg' });
    var defs = svgEl('defs');
    var marker = svgEl('marker', { id: 'xj-wf-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' });
    marker.appendChild(svgEl('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#777' }));
    defs.appendChild(marker);
    svg.appendChild(defs);
    g.edges().forEach(function (e) {
      var pts = g.edge(e).points || [];
      var d = pts.map(function (p, i) { return (i ? 'L' : 'M') + p.x.toFixed(1) + ',' + p.y.toFixed(1); }).join(' ');
      svg.appendChild(svgEl('path', { d: d, 'class': 'xj-wf-g-edge', 'data-from': e.v, 'data-to': e.w }));
    });
    nodes.forEach(function (n) {
      var at = g.node(String(n.id));
      var cls = 'xj-wf-g-node' + (n.state ? ' xj-wf-g-' + n.state : '') + (n.picked ? ' xj-wf-picked' : '');
      var box = svgEl('g', { 'class': cls, 'data-node': n.id,
        transform: 'translate(' + (at.x - NODE_W / 2).toFixed(1) + ',' + (at.y - NODE_H / 2).toFixed(1) + ')' });
      var title = svgEl('title');
      title.textContent = n.text + (n.state ? ' · ' + n.state : '');
      box.appendChild(title);
      box.appendChild(svgEl('rect', { width: NODE_W, height: NODE_H, rx: 4, ry: 4 }));
      var text = svgEl('text', { x: 8, y: NODE_H / 2 + 4 });
      text.textContent = clip(n.text, 24);
      box.appendChild(text);
      var holder = box;
      if (n.href) {
        holder = svgEl('a', { href: n.href, target: '_blank', rel: 'noopener', 'class': 'xj-wf-g-link' });
        holder.appendChild(box);
      }
      if (onPick) {
        box.addEventListener('click', function () { onPick(n.id); });
      }
      svg.appendChild(holder);
    });
    root.appendChild(svg);
  }

  function runPage() {
    var logURL = (data.links || {}).logUrl || '';
    var nodes = (data.nodes || []).map(function (n) {
      return {
        id: n.id,
        text: n.id + ' ' + (n.label || n.jobDesc || ('job ' + n.jobId)),
        state: n.state,
        href: n.logId > 0 ? logURL + '?id=' + encodeURIComponent(n.logId) : ''
      };
    });
    draw(nodes, data.edges || []);
  }

  function editorPage() {
    var table = document.getElementById('xj-wf-nodes');
    var edgesBox = document.getElementById('xj-wf-edges');
    if (!table || !edgesBox) {
      return;
    }
    var jobs = {};
    (data.jobs || []).forEach(function (j) { jobs[String(j.id)] = j.jobDesc; });
    var picked = null;

    function rows() {
      return Array.prototype.slice.call(table.querySelectorAll('tbody tr'));
    }
    function field(row, name) {
      var f = row.querySelector('[name="' + name + '"]');
      return f ? f.value.trim() : '';
    }
    function readNodes() {
      var out = [];
      var seen = {};
      rows().forEach(function (r) {
        var id = parseInt(field(r, 'node_id'), 10);
        var job = field(r, 'node_job');
        if (!(id > 0) || seen[id]) {
          return;
        }
        seen[id] = true;
        out.push({ id: id, text: id + ' ' + (field(r, 'node_label') || jobs[job] || (job ? 'job ' + job : '?')), picked: picked === id });
      });
      return out;
    }
    function readEdges() {
      var out = [];
      edgesBox.value.split('\n').forEach(function (line) {
        var parts = line.split(/[\s,>-]+/).filter(function (p) { return p !== ''; });
        if (parts.length === 2) {
          out.push({ from: parseInt(parts[0], 10), to: parseInt(parts[1], 10) });
        }
      });
      return out;
    }
    function redraw() {
      draw(readNodes(), readEdges(), pick);
    }
    function pick(id) {
      if (picked === null || picked === id) {
        picked = picked === id ? null : id;
      } else {
        var v = edgesBox.value;
        if (v !== '' && v.charAt(v.length - 1) !== '\n') {
          v += '\n';
        }
        edgesBox.value = v + picked + ' -> ' + id + '\n';
        picked = null;
      }
      redraw();
    }
    var timer = null;
    function later() {
      window.clearTimeout(timer);
      timer = window.setTimeout(redraw, 250);
    }
    table.addEventListener('input', later);
    table.addEventListener('change', later);
    edgesBox.addEventListener('input', later);

    var add = document.getElementById('xj-wf-add-node');
    if (add) {
      add.classList.remove('hidden');
      add.addEventListener('click', function () {
        var all = rows();
        var last = all[all.length - 1];
        if (!last) {
          return;
        }
        var next = 0;
        all.forEach(function (r) { next = Math.max(next, parseInt(field(r, 'node_id'), 10) || 0); });
        var row = last.cloneNode(true);
        Array.prototype.forEach.call(row.querySelectorAll('input'), function (i) { i.value = ''; });
        var rule = row.querySelector('select');
        if (rule) {
          rule.selectedIndex = 0;
        }
        row.querySelector('[name="node_id"]').value = String(next + 1);
        last.parentNode.appendChild(row);
        redraw();
      });
    }
    // "After a job" shows the parent job's picker; the other schedules hide it.
    var stype = document.getElementById('xj-wf-stype');
    var parentRow = document.querySelector('.xj-wf-parent-row');
    if (stype && parentRow) {
      var showParent = function () { parentRow.classList.toggle('hidden', stype.value !== 'JOB'); };
      stype.addEventListener('input', showParent);
      stype.addEventListener('change', showParent);
      showParent();
    }
    // A new workflow picks its group's jobs: changing the group reloads the editor.
    var group = document.getElementById('xj-wf-group');
    var idField = document.querySelector('#xj-wf-form [name="id"]');
    if (group && idField && (idField.value === '0' || idField.value === '')) {
      group.addEventListener('change', function () {
        window.location.href = ((data.links || {}).base || '') + '/edit?jobGroup=' + encodeURIComponent(group.value);
      });
    }
    redraw();
  }

  if (page === 'workflow_run') {
    runPage();
  } else if (page === 'workflow_edit') {
    editorPage();
  }
})(window);
