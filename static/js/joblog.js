/*
 * Trigger log list (console.md §6): filters (group, job from
 * /joblog/getJobsByGroup, status, trigger time range), the server-side list
 * over POST /joblog/pageList, the trigger and handle messages (the admin's
 * own markup, through XJ.triggerMsg's whitelist), rolling log and kill
 * per row, and clearing old rows.
 */
(function (window, $, XJ) {
  'use strict';

  var model = XJ.data || {};
  var FORMAT = 'YYYY-MM-DD HH:mm:ss';

  function showLink(cls) {
    return $('<a href="#" role="button"></a>').addClass(cls).text(XJ.t('system_show'));
  }

  function coloured(text, cls) {
    return $('<span></span>').addClass(cls).text(text);
  }

  function triggerResult(row) {
    if (row.triggerCode === 200) {
      return coloured(XJ.t('system_success'), 'text-green');
    }
    if (!row.triggerCode) {
      return document.createTextNode('');
    }
    return coloured(XJ.t('system_fail'), 'text-red');
  }

  function handleResult(row) {
    switch (row.handleCode) {
      case 200: return coloured(XJ.t('joblog_handleCode_200'), 'text-green');
      case 500: return coloured(XJ.t('joblog_handleCode_500'), 'text-red');
      case 502: return coloured(XJ.t('joblog_handleCode_502'), 'text-red');
      case 0: case null: case undefined: return document.createTextNode('');
    }
    return document.createTextNode(String(row.handleCode));
  }

  $(function () {
    var $group = $('#xj-filter-group');
    var $job = $('#xj-filter-job');
    var $time = $('#xj-filter-time');
    var wantedJob = model.job ? model.job.id : 0;
    var table = null;

    var m = window.moment;
    $time.daterangepicker(XJ.dateRangeOptions(m().startOf('day'), m().endOf('day')));

    function loadJobs() {
      var d = $.Deferred();
      var group = $group.val();
      var options = [{ value: 0, text: XJ.t('system_all') }];
      if (!group || group === '0') {
        XJ.fillSelect($job, options, 0);
        return d.resolve().promise();
      }
      XJ.post('/joblog/getJobsByGroup', { jobGroup: group }).done(function (answer) {
        if (XJ.ok(answer)) {
          $.each(answer.content || [], function (_, j) {
            options.push({ value: j.id, text: j.jobDesc });
          });
        } else if (answer && answer.msg) {
          XJ.alert(answer.msg);
        }
        XJ.fillSelect($job, options, wantedJob);
        if ($job.val() === null) {
          $job.val('0');
        }
        wantedJob = 0;
        d.resolve();
      }).fail(function (message) {
        XJ.fillSelect($job, options, 0);
        XJ.alert(message);
        d.resolve();
      });
      return d.promise();
    }

    function createTable() {
      var $table = $('#xj-log-list');
      table = $table.DataTable({
        processing: true,
        serverSide: true,
        searching: false,
        ordering: false,
        deferRender: true,
        autoWidth: false,
        language: XJ.dataTableLanguage(),
        ajax: XJ.listSource('/joblog/pageList', function () {
          return {
            jobGroup: $group.val() || 0,
            jobId: $job.val() || 0,
            logStatus: $('#xj-filter-status').val(),
            filterTime: $time.val()
          };
        }),
        columns: [
          XJ.domColumn(function (row) {
            return $('<a href="#" role="button" class="xj-log-info"></a>').text(row.jobId);
          }, { width: '8%' }),
          XJ.domColumn(function (row) { return document.createTextNode(XJ.time(row.triggerTime)); }, { width: '14%' }),
          XJ.domColumn(triggerResult, { width: '9%' }),
          XJ.domColumn(function (row) {
            return row.triggerMsg ? showLink('xj-trigger-msg') : document.createTextNode('');
          }, { width: '9%' }),
          XJ.domColumn(function (row) { return document.createTextNode(XJ.time(row.handleTime)); }, { width: '14%' }),
          XJ.domColumn(handleResult, { width: '9%' }),
          XJ.domColumn(function (row) {
            return row.handleMsg ? showLink('xj-handle-msg') : document.createTextNode(XJ.t('system_empty'));
          }, { width: '9%' }),
          XJ.domColumn(function (row) {
            if (row.triggerCode !== 200) {
              return document.createTextNode('');
            }
            var items = [{
              label: XJ.t('joblog_rolling_log'),
              href: XJ.url('/joblog/logDetailPage?id=' + encodeURIComponent(row.id)),
              target: '_blank'
            }];
            if (row.handleCode === 0) {
              items.push('divider', { label: XJ.t('joblog_kill_log'), cls: 'xj-kill' });
            }
            return XJ.dropdown(items);
          }, { width: '10%' })
        ]
      });

      function rowOf(el) {
        return table.row($(el).closest('tr')).data();
      }

      $table.on('click', '.xj-log-info', function (e) {
        e.preventDefault();
        var row = rowOf(this);
        var $dl = $('<dl class="dl-horizontal xj-log-info-list"></dl>');
        var add = function (label, value) {
          $('<dt></dt>').text(label).appendTo($dl);
          $('<dd></dd>').text(value === null || value === undefined ? '' : String(value)).appendTo($dl);
        };
        add(XJ.t('joblog_field_executorAddress'), row.executorAddress);
        add('JobHandler', row.executorHandler);
        add(XJ.t('jobinfo_field_executorparam'), row.executorParam);
        add(XJ.t('jobinfo_shard_index') + ' / ' + XJ.t('jobinfo_shard_total'), row.executorShardingParam);
        add(XJ.t('jobinfo_field_executorFailRetryCount'), row.executorFailRetryCount);
        XJ.alert($dl, XJ.t('jobinfo_field_id') + ' ' + row.jobId);
      });

      $table.on('click', '.xj-trigger-msg', function (e) {
        e.preventDefault();
        var $box = $('<div class="xj-msg"></div>').append(XJ.triggerMsg(rowOf(this).triggerMsg));
        XJ.alert($box, XJ.t('joblog_field_triggerMsg'));
      });

      $table.on('click', '.xj-handle-msg', function (e) {
        e.preventDefault();
        var $box = $('<div class="xj-msg"></div>').append(XJ.triggerMsg(rowOf(this).handleMsg));
        XJ.alert($box, XJ.t('joblog_field_handleMsg'));
      });

      $table.on('click', '.xj-kill', function (e) {
        e.preventDefault();
        var row = rowOf(this);
        var label = XJ.t('joblog_kill_log');
        XJ.confirm(XJ.t('system_ok') + label + '?').done(function () {
          XJ.post('/joblog/logKill', { id: row.id }).done(function (answer) {
            if (XJ.ok(answer)) {
              XJ.toast(answer.msg || label + XJ.t('system_success'));
              table.ajax.reload(null, false);
            } else {
              XJ.alert((answer && answer.msg) || label + XJ.t('system_fail'));
            }
          }).fail(function (message) { XJ.alert(message); });
        });
      });
    }

    function reload() {
      if (table) {
        table.ajax.reload(null, true);
      }
    }

    $group.on('change', function () {
      loadJobs().done(reload);
    });
    $job.on('change', reload);
    $('#xj-filter-status').on('change', reload);
    $time.on('apply.daterangepicker', function (_, picker) {
      $time.val(picker.startDate.format(FORMAT) + ' - ' + picker.endDate.format(FORMAT));
      reload();
    });
    $('#xj-search').on('click', reload);

    // clear old rows of the selected group and job
    var $clear = $('#xj-clear-modal');
    var $clearForm = $clear.find('form');
    $('#xj-clean').on('click', function () {
      $clearForm[0].reset();
      $clearForm.find('[name=jobGroup]').val($group.val() || 0);
      $clearForm.find('[name=jobId]').val($job.val() || 0);
      $clearForm.find('.xj-clear-group').text($group.find('option:selected').text() || XJ.t('system_all'));
      $clearForm.find('.xj-clear-job').text($job.find('option:selected').text() || XJ.t('system_all'));
      XJ.showModal($clear);
    });
    $clearForm.on('submit', function (e) {
      e.preventDefault();
      var label = XJ.t('joblog_clean_log');
      XJ.result(XJ.post('/joblog/clearLog', {
        jobGroup: $clearForm.find('[name=jobGroup]').val(),
        jobId: $clearForm.find('[name=jobId]').val(),
        type: $clearForm.find('[name=type]').val()
      }), label + XJ.t('system_success'), label + XJ.t('system_fail')).done(function () {
        $clear.modal('hide');
        reload();
      });
    });

    loadJobs().done(createTable);
  });
})(window, window.jQuery, window.XJ);
