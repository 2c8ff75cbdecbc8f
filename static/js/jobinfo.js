/*
 * Job list (console.md §5): server-side list over POST /jobinfo/pageList,
 * per-row actions (run once, query log, registry info, next trigger times,
 * GLUE IDE, start/stop, edit, delete, copy) and the add/edit form (their
 * dialogs: jobinfo-dialogs.js, shared with the 3.4.2 job page); the batch
 * actions on the checked rows (jobinfo-batch.js) and export/import
 * (jobinfo-transfer.js) are ours.
 */
(function (window, $, XJ) {
  'use strict';

  var model = XJ.data || {};

  function titleOf(options, name) {
    for (var i = 0; i < (options || []).length; i++) {
      if (options[i].name === name) {
        return options[i].title;
      }
    }
    return name;
  }

  $(function () {
    var $table = $('#xj-job-list');
    var table = $table.DataTable({
      processing: true,
      serverSide: true,
      searching: false,
      ordering: false,
      deferRender: true,
      autoWidth: false,
      language: XJ.dataTableLanguage(),
      ajax: XJ.listSource('/jobinfo/pageList', function () {
        return {
          jobGroup: $('#xj-filter-group').val(),
          triggerStatus: $('#xj-filter-status').val(),
          jobDesc: $('#xj-filter-desc').val(),
          executorHandler: $('#xj-filter-handler').val(),
          author: $('#xj-filter-author').val()
        };
      }),
      columns: [
        XJ.domColumn(function (row) {
          return $('<input type="checkbox" class="xj-select">').val(String(row.id))
            .attr('aria-label', XJ.jobWord('select', { id: row.id }));
        }, { width: '3%', className: 'xj-select-col' }),
        XJ.textColumn('id', { width: '7%' }),
        XJ.textColumn('jobDesc', { width: '22%' }),
        XJ.domColumn(function (row) {
          return document.createTextNode(XJ.scheduleText(row));
        }, { width: '15%' }),
        XJ.domColumn(function (row) {
          var title = titleOf(model.glueTypes, row.glueType);
          return document.createTextNode(row.executorHandler ? title + '：' + row.executorHandler : title);
        }, { width: '20%' }),
        XJ.textColumn('author', { width: '10%' }),
        XJ.domColumn(function (row) {
          return row.triggerStatus === 1
            ? $('<small class="label label-success">RUNNING</small>')
            : $('<small class="label label-default">STOP</small>');
        }, { width: '8%' }),
        XJ.domColumn(function (row) {
          var items = [
            { label: XJ.t('jobinfo_opt_run'), cls: 'xj-run' },
            { label: XJ.t('jobinfo_opt_log'), href: XJ.url('/joblog?jobId=' + encodeURIComponent(row.id)) },
            { label: XJ.t('jobinfo_opt_registryinfo'), cls: 'xj-registry' }
          ];
          if (row.scheduleType === 'CRON' || row.scheduleType === 'FIX_RATE') {
            items.push({ label: XJ.t('jobinfo_opt_next_time'), cls: 'xj-next-time' });
          }
          items.push('divider');
          if (row.glueType !== 'BEAN') {
            items.push({ label: 'GLUE IDE', href: XJ.url('/jobcode?jobId=' + encodeURIComponent(row.id)), target: '_blank' });
            items.push('divider');
          }
          items.push(row.triggerStatus === 1
            ? { label: XJ.t('jobinfo_opt_stop'), cls: 'xj-stop' }
            : { label: XJ.t('jobinfo_opt_start'), cls: 'xj-start' });
          items.push({ label: XJ.t('system_opt_edit'), cls: 'xj-edit' });
          items.push({ label: XJ.t('system_opt_del'), cls: 'xj-delete' });
          items.push({ label: XJ.t('system_opt_copy'), cls: 'xj-copy' });
          return XJ.dropdown(items);
        }, { width: '15%' })
      ]
    });

    function rowOf(el) {
      return table.row($(el).closest('tr')).data();
    }

    function reload(resetPaging) {
      table.ajax.reload(null, resetPaging !== false);
    }

    $('#xj-search').on('click', function () { reload(true); });
    $('#xj-filter-group, #xj-filter-status').on('change', function () { reload(true); });
    $('.xj-filters input').on('keydown', function (e) {
      if (e.key === 'Enter') {
        reload(true);
      }
    });

    // start / stop / delete: confirm, then POST {id}
    function simpleAction(el, path, label) {
      var row = rowOf(el);
      XJ.confirm(XJ.t('system_ok') + label + '?').done(function () {
        XJ.result(XJ.post(path, { id: row.id }), label + XJ.t('system_success'), label + XJ.t('system_fail'))
          .done(function () { reload(false); });
      });
    }
    $table.on('click', '.xj-start', function (e) {
      e.preventDefault();
      simpleAction(this, '/jobinfo/start', XJ.t('jobinfo_opt_start'));
    });
    $table.on('click', '.xj-stop', function (e) {
      e.preventDefault();
      simpleAction(this, '/jobinfo/stop', XJ.t('jobinfo_opt_stop'));
    });
    $table.on('click', '.xj-delete', function (e) {
      e.preventDefault();
      simpleAction(this, '/jobinfo/remove', XJ.t('system_opt_del'));
    });

    // run once, registry info, next trigger times, the add/edit/copy form
    var dialogs = XJ.jobDialogs({ reload: reload, batch: function () { return batch; } });
    $table.on('click', '.xj-run', function (e) {
      e.preventDefault();
      dialogs.runOnce(rowOf(this));
    });
    var boxes = XJ.jobCheckboxes($table, table);
    var batch = XJ.jobBatch({
      selected: boxes.selected,
      watch: boxes.watch,
      reload: reload,
      runOnce: dialogs.runMany
    });
    XJ.jobTransfer({ reload: reload });
    $table.on('click', '.xj-registry', function (e) {
      e.preventDefault();
      dialogs.registry(rowOf(this));
    });
    $table.on('click', '.xj-next-time', function (e) {
      e.preventDefault();
      dialogs.nextTimes(rowOf(this));
    });
    $('#xj-add').on('click', function () { dialogs.openForm('add', null); });
    $table.on('click', '.xj-edit', function (e) {
      e.preventDefault();
      dialogs.openForm('edit', rowOf(this));
    });
    $table.on('click', '.xj-copy', function (e) {
      e.preventDefault();
      dialogs.openForm('copy', rowOf(this));
    });
  });
})(window, window.jQuery, window.XJ);
