/*
 * Dashboard: the scheduling report of a date range (POST /chartInfo
 * {startDate, endDate} as yyyy-MM-dd HH:mm:ss, default the last week) as a
 * line chart per day and a pie of the totals.
 */
(function (window, $, XJ) {
  'use strict';

  var FORMAT = 'YYYY-MM-DD HH:mm:ss';
  var COLORS = { success: '#00A65A', fail: '#c23632', running: '#F39C12' };

  function successBar() {
    var $bar = $('#xj-log-success-bar');
    var total = Number($bar.attr('data-total')) || 0;
    var success = Number($bar.attr('data-success')) || 0;
    var pct = total > 0 ? Math.round(success * 100 / total) : 0;
    $bar.css('width', pct + '%').attr('title', XJ.t('joblog_status_suc') + ': ' + success + ' / ' + total);
  }

  function charts() {
    var line = window.echarts.init(document.getElementById('xj-line-chart'));
    var pie = window.echarts.init(document.getElementById('xj-pie-chart'));
    $(window).on('resize', function () {
      line.resize();
      pie.resize();
    });
    // the sidebar toggle changes the width without a window resize
    $(document).on('collapsed.pushMenu expanded.pushMenu', function () {
      window.setTimeout(function () { line.resize(); pie.resize(); }, 350);
    });
    return { line: line, pie: pie };
  }

  function draw(c, content) {
    var suc = XJ.t('joblog_status_suc');
    var fail = XJ.t('joblog_status_fail');
    var running = XJ.t('joblog_status_running');
    c.line.setOption({
      title: { text: XJ.t('job_dashboard_date_report') },
      tooltip: { trigger: 'axis', axisPointer: { type: 'cross' } },
      legend: { data: [suc, fail, running] },
      toolbox: { feature: {} },
      grid: { left: '3%', right: '4%', bottom: '3%', containLabel: true },
      xAxis: [{ type: 'category', boundaryGap: false, data: content.triggerDayList || [] }],
      yAxis: [{ type: 'value' }],
      color: [COLORS.success, COLORS.fail, COLORS.running],
      series: [
        { name: suc, type: 'line', stack: 'total', areaStyle: {}, data: content.triggerDayCountSucList || [] },
        { name: fail, type: 'line', stack: 'total', areaStyle: {}, data: content.triggerDayCountFailList || [] },
        { name: running, type: 'line', stack: 'total', areaStyle: {}, label: { show: true, position: 'top' },
          data: content.triggerDayCountRunningList || [] }
      ]
    }, true);
    c.pie.setOption({
      title: { text: XJ.t('job_dashboard_rate_report'), left: 'center' },
      tooltip: { trigger: 'item', formatter: '{b} : {c} ({d}%)' },
      legend: { orient: 'vertical', left: 'left', data: [suc, fail, running] },
      color: [COLORS.success, COLORS.fail, COLORS.running],
      series: [{
        name: XJ.t('job_dashboard_rate_report'),
        type: 'pie',
        radius: '55%',
        center: ['50%', '60%'],
        data: [
          { name: suc, value: content.triggerCountSucTotal || 0 },
          { name: fail, value: content.triggerCountFailTotal || 0 },
          { name: running, value: content.triggerCountRunningTotal || 0 }
        ]
      }]
    }, true);
  }

  function load(c, start, end) {
    $('#xj-report-range .xj-range-text').text(start.format(FORMAT) + ' - ' + end.format(FORMAT));
    XJ.post('/chartInfo', { startDate: start.format(FORMAT), endDate: end.format(FORMAT) })
      .done(function (answer) {
        if (XJ.ok(answer) && answer.content) {
          draw(c, answer.content);
        } else {
          XJ.alert((answer && answer.msg) || XJ.t('job_dashboard_report_loaddata_fail'));
        }
      })
      .fail(function () { XJ.alert(XJ.t('job_dashboard_report_loaddata_fail')); });
  }

  $(function () {
    successBar();
    var c = charts();
    var m = window.moment;
    var start = m().subtract(1, 'weeks').startOf('day');
    var end = m().endOf('day');
    $('#xj-report-range').daterangepicker(XJ.dateRangeOptions(start, end), function (s, e) {
      load(c, s, e);
    });
    load(c, start, end);
  });
})(window, window.jQuery, window.XJ);
