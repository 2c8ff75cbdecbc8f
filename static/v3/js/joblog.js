/*
 * The 3.4.2 log list: the executor and job filters are selects with a
 * search box (3.4.1); a new executor reloads the page on it (the server
 * lists its jobs), as the 3.4.2 page does. The time range starts as the
 * last week. The list (list.js) posts /joblog/pageList {jobGroup, jobId,
 * logStatus, filterTime}; the job column names the job from the job
 * filter's options. The trigger and handle messages open in a dialog
 * through XJ.triggerMsg's whitelist (the admin's own markup: <br> and
 * coloured spans, everything else as text). The toolbar kills the
 * selected run, clears logs of the filter's executor and job, and opens
 * the selected row's rolling log in a window.
 */
(function (window, $, XJ) {
  'use strict';

  var FORMAT = 'YYYY-MM-DD HH:mm:ss';
  var JOB_MAX = 10; // the job column's text is cut after this many characters

  function time(value) {
    return XJ.esc(XJ.time(value));
  }

  function coloured(cls, text) {
    return '<span class="' + cls + '">' + XJ.esc(text) + '</span>';
  }

  function msgLink(value, kind) {
    if (!value) {
      return XJ.esc(XJ.t('system_empty'));
    }
    return '<a href="#" role="button" class="xj-log-msg" data-kind="' + kind + '">' + XJ.esc(XJ.t('system_show')) + '</a>';
  }

  $(function () {
    var model = XJ.data || {};
    var $group = $('#xj-filter-group');
    var $job = $('#xj-filter-job');
    var $time = $('#xj-filter-time');
    var m = window.moment;

    $group.select2({ width: '100%' });
    $job.select2({ width: '100%' });
    $group.on('change', function () {
      window.location.href = XJ.url('/joblog?jobGroup=' + encodeURIComponent($group.val()));
    });

    var week = [m().subtract(1, 'weeks').startOf('day'), m().endOf('day')];
    $time.daterangepicker($.extend(XJ.dateRangeOptions(week[0], week[1]), { autoApply: false, showDropdowns: true }));
    $time.on('apply.daterangepicker', function (_, picker) {
      $time.val(picker.startDate.format(FORMAT) + ' - ' + picker.endDate.format(FORMAT));
    });

    function resetFilter() {
      var picker = $time.data('daterangepicker');
      picker.setStartDate(week[0]);
      picker.setEndDate(week[1]);
      $time.val(week[0].format(FORMAT) + ' - ' + week[1].format(FORMAT));
      $job.val(String(model.jobId || 0)).trigger('change.select2');
      $('#xj-filter-status').prop('selectedIndex', 0);
    }
    resetFilter();

    function jobName(id) {
      var text = '【' + id + '】';
      var $o = $job.find('option').filter(function () { return this.value === String(id); });
      if ($o.length && String(id) !== '0') {
        text += $o.text();
      }
      return text.length > JOB_MAX ? text.slice(0, JOB_MAX) + '...' : text;
    }

    var list = XJ.list3({
      table: '#xj-log-list',
      path: '/joblog/pageList',
      params: function () {
        return {
          jobGroup: $group.val(),
          jobId: $job.val() || 0,
          logStatus: $('#xj-filter-status').val(),
          filterTime: $time.val()
        };
      },
      reset: resetFilter,
      columns: [
        { title: XJ.t('joblog_name') + 'ID', field: 'id', width: 10, widthUnit: '%', align: 'left' },
        {
          title: XJ.t('jobinfo_job'), field: 'jobId', width: 15, widthUnit: '%', align: 'left',
          formatter: function (value) { return XJ.esc(jobName(value)); }
        },
        { title: XJ.t('joblog_field_triggerTime'), field: 'triggerTime', width: 15, widthUnit: '%', formatter: time },
        {
          title: XJ.t('joblog_field_triggerCode'), field: 'triggerCode', width: 10, widthUnit: '%',
          formatter: function (value) {
            if (value === 200) {
              return coloured('text-green', XJ.t('system_success'));
            }
            return value > 0 ? coloured('text-red', XJ.t('system_fail')) : '';
          }
        },
        {
          title: XJ.t('joblog_field_triggerMsg'), field: 'triggerMsg', width: 10, widthUnit: '%',
          formatter: function (value) { return msgLink(value, 'triggerMsg'); }
        },
        { title: XJ.t('joblog_field_handleTime'), field: 'handleTime', width: 15, widthUnit: '%', formatter: time },
        {
          title: XJ.t('joblog_field_handleCode'), field: 'handleCode', width: 10, widthUnit: '%',
          formatter: function (value) {
            if (value === 200) {
              return coloured('text-green', XJ.t('joblog_handleCode_200'));
            }
            if (value === 502) {
              return coloured('text-red', XJ.t('joblog_handleCode_502'));
            }
            return value > 0 ? coloured('text-red', XJ.t('joblog_handleCode_500')) : '';
          }
        },
        {
          title: XJ.t('joblog_field_handleMsg'), field: 'handleMsg', width: 10, widthUnit: '%',
          formatter: function (value) { return msgLink(value, 'handleMsg'); }
        }
      ]
    });

    // a message opens in a dialog; the click must not change the selection
    $('#xj-log-list').on('click', '.xj-log-msg', function (e) {
      e.preventDefault();
      e.stopPropagation();
      var row = $('#xj-log-list').bootstrapTable('getData')[+$(this).closest('tr').attr('data-index')];
      var kind = $(this).attr('data-kind');
      var $box = $('<div class="xj-msg"></div>').append(XJ.triggerMsg(row && row[kind]));
      XJ.alert($box, XJ.t(kind === 'triggerMsg' ? 'joblog_field_triggerMsg' : 'joblog_field_handleMsg'), 'xj-msg-dark');
    });

    $('#xj-detail').on('click', function () {
      var row = list.one();
      if (row) {
        window.open(XJ.url('/joblog/logDetailPage?id=' + encodeURIComponent(row.id)), '_blank');
      }
    });

    $('#xj-kill').on('click', function () {
      var row = list.one();
      if (!row) {
        return;
      }
      var label = XJ.t('joblog_kill_log');
      XJ.confirm(XJ.t('system_ok') + label + '?').done(function () {
        XJ.post('/joblog/logKill', { id: row.id }).done(function (answer) {
          if (XJ.ok(answer)) {
            XJ.alert(XJ.t('system_opt_suc')).done(function () { list.reload(false); });
          } else {
            XJ.alert((answer && answer.msg) || XJ.t('system_opt_fail'));
          }
        }).fail(function (message) { XJ.alert(message); });
      });
    });

    // clear logs of the filter's executor and job
    var $clear = $('#xj-clear-modal');
    var $clearForm = $clear.find('form');
    $('#xj-clean').on('click', function () {
      $clearForm[0].reset();
      $clearForm.find('[name=jobGroup]').val($group.val());
      $clearForm.find('[name=jobId]').val($job.val() || 0);
      $clearForm.find('.xj-clear-group').val($group.find('option:selected').text());
      $clearForm.find('.xj-clear-job').val($job.find('option:selected').text());
      XJ.showModal($clear);
    });
    $clearForm.on('submit', function (e) {
      e.preventDefault();
      var label = XJ.t('joblog_clean_log');
      XJ.post('/joblog/clearLog', {
        jobGroup: $clearForm.find('[name=jobGroup]').val(),
        jobId: $clearForm.find('[name=jobId]').val(),
        type: $clearForm.find('[name=type]').val()
      }).done(function (answer) {
        if (XJ.ok(answer)) {
          $clear.modal('hide');
          XJ.alert(label + XJ.t('system_success')).done(function () { list.reload(false); });
        } else {
          XJ.alert((answer && answer.msg) || label + XJ.t('system_fail'));
        }
      }).fail(function (message) { XJ.alert(message); });
    });
  });
})(window, window.jQuery, window.XJ);
