/*
 * Rolling log of one trigger (console.md §6): pulls POST
 * /joblog/logDetailCat {logId, fromLineNum} and appends the lines as text.
 * - trigger failed and never handled: only the "trigger fail" note;
 * - already handled when the page was rendered: one pull;
 * - else a pull every 3 s (the next one after the previous answered),
 *   continuing at toLineNum + 1, until a pull brings no new lines and says
 *   end; after 21 pulls in a row without new lines it gives up.
 * Answers for another start line or with code != 200 are ignored.
 */
(function (window, $, XJ) {
  'use strict';

  var INTERVAL = 3000;
  var MAX_IDLE_PULLS = 21;

  $(function () {
    var model = XJ.data || {};
    var $console = $('#xj-log-console');
    var $status = $('#xj-log-status');
    var fromLine = 1;
    var idle = 0;
    var stopped = false;

    $('#xj-log-refresh').on('click', function (e) {
      e.preventDefault();
      window.location.reload();
    });

    function stop(text, cls) {
      stopped = true;
      $status.empty().append($('<span></span>').addClass(cls).text(text));
    }

    function append(text) {
      var el = $console[0];
      var atBottom = window.innerHeight + window.pageYOffset >= document.body.offsetHeight - 30;
      el.appendChild(document.createTextNode(XJ.decodeLog(text)));
      if (atBottom) {
        window.scrollTo(0, document.body.scrollHeight);
      }
    }

    // pull resolves with true when the log is complete.
    function pull() {
      var d = $.Deferred();
      idle++;
      var asked = fromLine;
      XJ.post('/joblog/logDetailCat', { logId: model.logId, fromLineNum: asked }).done(function (answer) {
        var c = answer && answer.content;
        if (!XJ.ok(answer) || !c || c.fromLineNum !== asked) {
          d.resolve(false);
          return;
        }
        if (c.fromLineNum > c.toLineNum) {
          d.resolve(!!c.end);
          return;
        }
        fromLine = c.toLineNum + 1;
        idle = 0;
        append(c.logContent || '');
        d.resolve(false);
      }).fail(function () {
        d.resolve(false);
      });
      return d.promise();
    }

    function loop() {
      if (stopped) {
        return;
      }
      if (idle >= MAX_IDLE_PULLS) {
        stop(XJ.t('joblog_rolling_log_failoften'), 'text-red');
        return;
      }
      pull().done(function (end) {
        if (end) {
          stop('[Rolling Log Finish]', 'text-green');
          return;
        }
        window.setTimeout(loop, INTERVAL);
      });
    }

    if (model.triggerCode !== 200 && model.handleCode === 0) {
      stop(XJ.t('joblog_rolling_log_triggerfail'), 'text-red');
      return;
    }
    if (model.handleCode > 0) {
      pull().done(function () {
        stop('[Load Log Finish]', 'text-green');
      });
      return;
    }
    loop();
  });
})(window, window.jQuery, window.XJ);
