/*
 * Rolling log of one trigger (console.md §6): pulls POST
 * /joblog/logDetailCat {logId, fromLineNum} and appends the lines as text.
 * - trigger failed and never handled: only the "trigger fail" note;
 * - already handled when the page was rendered: one pull;
 * - else a pull every 3 s (the next one after the previous answered),
 *   continuing at toLineNum + 1, until a pull brings no new lines and says
 *   end; after 21 pulls in a row without new lines it gives up.
 * Answers for another start line or with code != 200 are ignored (the
 * 3.x page shows a refusal's message in the log, as the 3.4.2 page does).
 *
 * On 3.x the text comes escaped except the tags <br>, <b> and </b>
 * (XJ.logContent), the end notes are 3.4.2's ("[Rolling Log Finish]" for a
 * finished log, "[Rolling Log End]" when the rolling ends) and a spinner
 * (.xj-log-running) turns while it rolls.
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
    $('#xj-log-close').on('click', function (e) { // the 3.x page's
      e.preventDefault();
      window.close();
    });

    function stop(text, cls) {
      stopped = true;
      $('.xj-log-running').remove();
      $status.empty().append($('<span></span>').addClass(cls).text(text));
    }

    function append(text) {
      var el = $console[0];
      var atBottom = window.innerHeight + window.pageYOffset >= document.body.offsetHeight - 30;
      el.appendChild(XJ.gen3 ? XJ.logContent(text) : document.createTextNode(XJ.decodeLog(text)));
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
        if (XJ.gen3 && answer && !XJ.ok(answer)) {
          $console.append($('<span class="text-red"></span>').text('[Rolling Log Error]: ' + (answer.msg || '') + '\n'));
        }
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
          stop(XJ.gen3 ? '[Rolling Log End]' : '[Rolling Log Finish]', 'text-green');
          return;
        }
        window.setTimeout(loop, INTERVAL);
      });
    }

    if (model.triggerCode !== 200 && model.handleCode === 0) {
      var fail = XJ.t('joblog_rolling_log_triggerfail');
      stop(XJ.gen3 ? '[' + fail + ']' : fail, 'text-red');
      return;
    }
    if (model.handleCode > 0) {
      pull().done(function () {
        stop(XJ.gen3 ? '[Rolling Log Finish]' : '[Load Log Finish]', 'text-green');
      });
      return;
    }
    loop();
  });
})(window, window.jQuery, window.XJ);
