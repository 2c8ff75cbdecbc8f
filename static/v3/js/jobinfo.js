/*
 * The 3.4.2 job list: the executor filter is a select with a search box
 * (3.4.1) whose change reloads the page on that executor, as the 3.4.2
 * page does; the list (list.js) posts /jobinfo/pageList, and its toolbar
 * acts on the selected row: add, edit, GLUE IDE (a window of its own),
 * delete, copy, start, stop, run once, its logs (a tab of the frame), the
 * registered addresses and the next trigger times. start, stop and delete
 * post ids[]=<id>, as the 3.4.2 page does. The dialogs are shared with the
 * 2.x page (jobinfo-dialogs.js); batch actions (jobinfo-batch.js) and the
 * export and import (jobinfo-transfer.js) are ours.
 */
(function (window, $, XJ) {
  'use strict';

  var model = XJ.data || {};
  var DESC_MAX = 15; // longer descriptions are cut, the whole one is the title

  function titleOf(options, name) {
    for (var i = 0; i < (options || []).length; i++) {
      if (options[i].name === name) {
        return options[i].title;
      }
    }
    return name;
  }

  $(function () {
    var $group = $('#xj-filter-group');
    $group.select2({ width: '100%' });
    $group.on('change', function () {
      window.location.href = XJ.url('/jobinfo?jobGroup=' + encodeURIComponent($group.val()));
    });

    var list = XJ.list3({
      table: '#xj-job-list',
      path: '/jobinfo/pageList',
      params: function () {
        return {
          jobGroup: $group.val(),
          triggerStatus: $('#xj-filter-status').val(),
          jobDesc: $('#xj-filter-desc').val(),
          executorHandler: $('#xj-filter-handler').val(),
          author: $('#xj-filter-author').val()
        };
      },
      // the executor stays the page's
      reset: function () {
        $('.xj-filters input[type=text]').val('');
        $('#xj-filter-status').prop('selectedIndex', 0);
      },
      columns: [
        { title: XJ.t('jobinfo_field_id'), field: 'id', width: 5, widthUnit: '%', align: 'left' },
        {
          title: XJ.t('jobinfo_field_jobdesc'), field: 'jobDesc', width: 25, widthUnit: '%', align: 'left',
          formatter: function (value) {
            var s = value === null || value === undefined ? '' : String(value);
            if (s.length > DESC_MAX) {
              return '<span title="' + XJ.esc(s) + '">' + XJ.esc(s.slice(0, DESC_MAX)) + '...</span>';
            }
            return XJ.esc(s);
          }
        },
        {
          title: XJ.t('schedule_type'), field: 'scheduleType', width: 15, widthUnit: '%',
          formatter: function (value, row) {
            return XJ.esc(XJ.scheduleText(row));
          }
        },
        {
          title: XJ.t('jobinfo_field_gluetype'), field: 'glueType', width: 25, widthUnit: '%',
          formatter: function (value, row) {
            var title = titleOf(model.glueTypes, row.glueType);
            return XJ.esc(row.executorHandler ? title + '：' + row.executorHandler : title);
          }
        },
        {
          title: XJ.t('system_status'), field: 'triggerStatus', width: 10, widthUnit: '%',
          formatter: function (value) {
            return value === 1 ? XJ.labelCell('label-success', 'RUNNING') : XJ.labelCell('label-default', 'STOP');
          }
        },
        { title: XJ.t('jobinfo_field_author'), field: 'author', width: 10, widthUnit: '%' }
      ]
    });

    function reload(firstPage) {
      list.reload(firstPage);
    }

    // start / stop / delete: confirm, then ids[]=<id>
    function simpleAction(path, label) {
      var row = list.one();
      if (!row) {
        return;
      }
      XJ.confirm(XJ.t('system_ok') + label + '?').done(function () {
        XJ.result(XJ.post(path, XJ.jobRef(row.id)), label + XJ.t('system_success'), label + XJ.t('system_fail'))
          .done(function () { reload(false); });
      });
    }
    $('#xj-start').on('click', function () { simpleAction(XJ.paths.jobStart, XJ.t('jobinfo_opt_start')); });
    $('#xj-stop').on('click', function () { simpleAction(XJ.paths.jobStop, XJ.t('jobinfo_opt_stop')); });
    $('#xj-delete').on('click', function () { simpleAction(XJ.paths.jobRemove, XJ.t('system_opt_del')); });

    var batch;
    var dialogs = XJ.jobDialogs({ reload: reload, batch: function () { return batch; } });
    function withOne(action) {
      return function () {
        var row = list.one();
        if (row) {
          action(row);
        }
      };
    }
    $('#xj-add').on('click', function () { dialogs.openForm('add', null); });
    $('#xj-edit').on('click', withOne(function (row) { dialogs.openForm('edit', row); }));
    $('#xj-copy').on('click', withOne(function (row) { dialogs.openForm('copy', row); }));
    $('#xj-run').on('click', withOne(dialogs.runOnce));
    $('#xj-registry').on('click', withOne(dialogs.registry));
    $('#xj-next-time').on('click', withOne(dialogs.nextTimes));
    $('#xj-log').on('click', withOne(function (row) {
      XJ.openInTab('/joblog?jobId=' + encodeURIComponent(row.id), XJ.t('joblog_name'));
    }));
    $('#xj-glue').on('click', withOne(function (row) {
      if (row.glueType === 'BEAN') {
        XJ.toast(XJ.t('jobinfo_glue_gluetype_invalid'));
        return;
      }
      window.open(XJ.url('/jobcode?jobId=' + encodeURIComponent(row.id)), '_blank');
    }));

    // ours: the batch actions on every selected row, export and import
    batch = XJ.jobBatch({
      selected: list.selected,
      watch: list.watch,
      reload: reload,
      runOnce: dialogs.runMany
    });
    list.watch(function (n) {
      $('#xj-batch').prop('disabled', n === 0);
      $('#xj-selected-count').text(n ? String(n) : '');
    });
    XJ.jobTransfer({ reload: reload });
  });
})(window, window.jQuery, window.XJ);
