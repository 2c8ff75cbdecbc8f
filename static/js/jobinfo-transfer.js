/*
 * Export and import on the job list (new: the Java console has neither;
 * compat/console/transfer.go, docs/job-api.md, "Export and import").
 *
 * The export buttons are links to <ctx>/jobinfo/export (3.x: XJ.paths), which the server
 * answers as a file download: the jobs of the chosen executor, or of every
 * executor the user may use. They have no download attribute, so an expired
 * session leads to the login page rather than saving it as the file. The import dialog (admins only) takes a file
 * or pasted JSON, always runs the import as a dry run first and shows its
 * change list, and offers the real import only for the document and mode
 * that dry run checked. A refusal (nothing is written then) is shown as the
 * server's text.
 *
 * XJ.jobTransfer({reload(resetPaging)})
 */
(function (window, $, XJ) {
  'use strict';

  var OUTCOME_CLASS = { created: 'label-success', updated: 'label-warning', kept: 'label-info', unchanged: 'label-default' };
  var OUTCOMES = ['created', 'updated', 'kept', 'unchanged'];
  var KINDS = ['group', 'job'];

  function kindName(kind) {
    return kind === 'group' ? XJ.t('jobinfo_field_jobgroup') : XJ.t('jobinfo_job');
  }

  /** summary is one line per kind: "Executor: created 1; Job: created 3, kept 1". */
  function summary(changes) {
    var parts = [];
    $.each(KINDS, function (_, kind) {
      var counts = [];
      $.each(OUTCOMES, function (_, outcome) {
        var n = changes.filter(function (c) { return c.kind === kind && c.outcome === outcome; }).length;
        if (n) {
          counts.push(XJ.jobWord(outcome) + ' ' + n);
        }
      });
      if (counts.length) {
        parts.push(kindName(kind) + ': ' + counts.join(', '));
      }
    });
    return parts.length ? parts.join('; ') : XJ.jobWord('empty');
  }

  XJ.jobTransfer = function (opts) {
    var $group = $('#xj-filter-group');
    function exportLink() {
      var g = $group.val();
      $('#xj-export-group').attr('href', XJ.url(XJ.paths.jobExport + (g ? '?jobGroup=' + encodeURIComponent(g) : '')));
    }
    $group.on('change', exportLink);
    exportLink();

    var $m = $('#xj-import-modal');
    if (!$m.length) {
      return; // not an admin
    }
    var $file = $('#xj-i-file');
    var $doc = $('#xj-i-doc');
    var $dry = $('#xj-i-dry');
    var $run = $('#xj-i-run');
    var $error = $m.find('.xj-i-error');
    var $report = $m.find('.xj-i-report');
    var checked = null; // {text, mode} of the last dry run that passed
    var busy = false;

    $doc.attr('placeholder', XJ.jobWord('paste'));

    function mode() {
      return $m.find('input[name=mode]:checked').val();
    }

    function buttons() {
      $dry.prop('disabled', busy);
      $run.prop('disabled', busy || !checked || checked.text !== $doc.val() || checked.mode !== mode());
    }

    function clear() {
      checked = null;
      $error.prop('hidden', true).text('');
      $report.prop('hidden', true);
      $report.find('tbody').empty();
      buttons();
    }

    function showError(message) {
      $report.prop('hidden', true);
      $error.text(message).prop('hidden', false);
    }

    function showReport(rep) {
      var changes = rep.changes || [];
      $error.prop('hidden', true);
      $report.find('.xj-i-summary').text(XJ.jobWord('dryRunDone') + ' ' + summary(changes));
      var $body = $report.find('tbody').empty();
      $.each(changes, function (_, c) {
        var $tr = $('<tr></tr>').attr({ 'data-kind': c.kind, 'data-outcome': c.outcome });
        $('<td></td>').text(kindName(c.kind)).appendTo($tr);
        $('<td class="xj-i-name"></td>').text(c.name).appendTo($tr);
        $('<td></td>').append($('<span class="label"></span>').addClass(OUTCOME_CLASS[c.outcome] || 'label-default')
          .text(XJ.jobWord(c.outcome))).appendTo($tr);
        $('<td></td>').text((c.fields || []).join(', ')).appendTo($tr);
        $tr.appendTo($body);
      });
      $report.find('.xj-i-changes').prop('hidden', !changes.length);
      $report.prop('hidden', false);
    }

    // a real import reloads the page when it made or changed an executor
    // (the group lists are the server's), else the list
    function imported(rep) {
      var changes = rep.changes || [];
      XJ.alert(summary(changes), XJ.jobWord('imported')).done(function () {
        var groups = changes.some(function (c) { return c.kind === 'group' && (c.outcome === 'created' || c.outcome === 'updated'); });
        if (groups) {
          window.location.reload();
        } else {
          opts.reload(false);
        }
      });
    }

    function send(dryRun) {
      var text = $doc.val();
      var m = mode();
      if (!$.trim(text)) {
        showError(XJ.jobWord('noDocument'));
        return;
      }
      busy = true;
      buttons();
      XJ.postJSON(XJ.paths.jobImport + '?mode=' + encodeURIComponent(m) + '&dryRun=' + dryRun, text).done(function (answer) {
        if (!XJ.ok(answer)) {
          checked = null;
          showError((answer && answer.msg) || XJ.t('system_fail'));
          return;
        }
        var rep = answer.content || {};
        if (dryRun) {
          checked = { text: text, mode: m };
          showReport(rep);
          return;
        }
        checked = null;
        $m.modal('hide');
        imported(rep);
      }).fail(function (message) {
        checked = null;
        showError(message);
      }).always(function () {
        busy = false;
        buttons();
      });
    }

    $doc.on('input change', clear);
    $m.find('input[name=mode]').on('change', clear);
    $file.on('change', function () {
      var f = this.files && this.files[0];
      if (!f) {
        return;
      }
      var reader = new window.FileReader();
      reader.addEventListener('load', function () {
        $doc.val(String(reader.result));
        clear();
      });
      reader.addEventListener('error', function () {
        clear();
        showError(XJ.jobWord('unreadable'));
      });
      reader.readAsText(f);
    });
    $dry.on('click', function () { send(true); });
    $run.on('click', function () {
      if (checked && checked.text === $doc.val() && checked.mode === mode()) {
        send(false);
      }
    });

    $('#xj-import').on('click', function () {
      $m.find('form')[0].reset();
      $doc.val('');
      clear();
      XJ.showModal($m);
    });
  };
})(window, window.jQuery, window.XJ);
