/*
 * A Quartz cron expression builder (second minute hour day month week
 * [year]) for the job form: one tab per field, each with "every / range /
 * step / specific values" choices (day and week also "not specified", day
 * also "last day"), writing the expression into the form's input. The input
 * stays free text; opening the builder reads the expression back into it,
 * and a part it cannot show is kept as written.
 *
 * XJ.cronBuilder($container, $input) -> { sync() }
 */
(function (window, $, XJ) {
  'use strict';

  // The bundle has no words for the builder, so it carries its own.
  var WORDS = {
    en: {
      second: 'Second', minute: 'Minute', hour: 'Hour', day: 'Day', month: 'Month', week: 'Week', year: 'Year',
      every: 'Every', unspecified: 'Not specified', last: 'Last day of the month', none: 'None',
      from: 'From', to: 'to', start: 'Start at', step: 'every', specific: 'Specific values',
      custom: 'As written', weekdays: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
    },
    zh_CN: {
      second: '秒', minute: '分钟', hour: '小时', day: '日', month: '月', week: '周', year: '年',
      every: '每', unspecified: '不指定', last: '本月最后一天', none: '不填',
      from: '从', to: '到', start: '从', step: '开始，每隔', specific: '指定',
      custom: '保持原样', weekdays: ['周日', '周一', '周二', '周三', '周四', '周五', '周六']
    },
    zh_TC: {
      second: '秒', minute: '分鐘', hour: '小時', day: '日', month: '月', week: '週', year: '年',
      every: '每', unspecified: '不指定', last: '本月最後一天', none: '不填',
      from: '從', to: '到', start: '從', step: '開始，每隔', specific: '指定',
      custom: '保持原樣', weekdays: ['週日', '週一', '週二', '週三', '週四', '週五', '週六']
    }
  };

  // Quartz fields in expression order: value range and the choices offered.
  var FIELDS = [
    { key: 'second', min: 0, max: 59, modes: ['every', 'range', 'step', 'list'] },
    { key: 'minute', min: 0, max: 59, modes: ['every', 'range', 'step', 'list'] },
    { key: 'hour', min: 0, max: 23, modes: ['every', 'range', 'step', 'list'] },
    { key: 'day', min: 1, max: 31, modes: ['every', 'unspecified', 'range', 'step', 'list', 'last'] },
    { key: 'month', min: 1, max: 12, modes: ['every', 'range', 'step', 'list'] },
    { key: 'week', min: 1, max: 7, modes: ['unspecified', 'every', 'range', 'list'] },
    { key: 'year', min: 1970, max: 2099, modes: ['none', 'every', 'range'] }
  ];

  var instances = 0;

  function parsePart(text) {
    if (text === undefined || text === '') {
      return { mode: 'none' };
    }
    var m;
    if (text === '*') {
      return { mode: 'every' };
    }
    if (text === '?') {
      return { mode: 'unspecified' };
    }
    if (text === 'L') {
      return { mode: 'last' };
    }
    if ((m = /^(\d+)-(\d+)$/.exec(text))) {
      return { mode: 'range', a: +m[1], b: +m[2] };
    }
    if ((m = /^(\d+|\*)\/(\d+)$/.exec(text))) {
      return { mode: 'step', a: m[1] === '*' ? 0 : +m[1], b: +m[2] };
    }
    if (/^\d+(,\d+)*$/.test(text)) {
      return { mode: 'list', values: text.split(',').map(Number) };
    }
    return { mode: 'custom', raw: text };
  }

  function defaults(field) {
    return { key: field.key, a: field.min, b: field.key === 'year' ? field.min + 1 : Math.min(field.min + 1, field.max) };
  }

  XJ.cronBuilder = function ($container, $input) {
    var w = WORDS[XJ.lang] || WORDS.en;
    var id = 'xj-cron-' + (++instances);
    var $tabs = $('<ul class="nav nav-tabs" role="tablist"></ul>');
    var $panes = $('<div class="tab-content"></div>');

    $.each(FIELDS, function (i, field) {
      var paneID = id + '-' + field.key;
      var $a = $('<a data-toggle="tab" role="tab"></a>').attr('href', '#' + paneID).text(w[field.key]);
      $('<li role="presentation"></li>').toggleClass('active', i === 0).append($a).appendTo($tabs);
      var $pane = $('<div role="tabpanel" class="tab-pane xj-cron-pane"></div>')
        .attr({ id: paneID, 'data-field': field.key }).toggleClass('active', i === 0).appendTo($panes);
      var name = paneID + '-mode';
      $.each(field.modes, function (_, mode) {
        var $row = $('<div class="radio"></div>').appendTo($pane);
        var $label = $('<label></label>').appendTo($row);
        $('<input type="radio">').attr({ name: name, value: mode }).appendTo($label);
        $label.append(document.createTextNode(' '));
        var num = function (cls) {
          return $('<input type="number" class="form-control input-sm xj-cron-num">')
            .addClass(cls).attr({ min: field.min, max: field.max });
        };
        switch (mode) {
          case 'every':
            $label.append(document.createTextNode(w.every + (XJ.lang === 'en' ? ' ' : '') + w[field.key].toLowerCase()));
            break;
          case 'unspecified':
            $label.append(document.createTextNode(w.unspecified + ' (?)'));
            break;
          case 'last':
            $label.append(document.createTextNode(w.last + ' (L)'));
            break;
          case 'none':
            $label.append(document.createTextNode(w.none));
            break;
          case 'range':
            $label.append(document.createTextNode(w.from + ' '), num('xj-range-a'),
              document.createTextNode(' ' + w.to + ' '), num('xj-range-b'));
            break;
          case 'step':
            $label.append(document.createTextNode(w.start + ' '), num('xj-step-a'),
              document.createTextNode(' ' + w.step + ' '), num('xj-step-b').attr('min', 1),
              document.createTextNode(' ' + w[field.key].toLowerCase()));
            break;
          case 'list':
            $label.append(document.createTextNode(w.specific));
            var $values = $('<div class="xj-cron-values"></div>').appendTo($row);
            for (var v = field.min; v <= field.max; v++) {
              var text = field.key === 'week' ? w.weekdays[v - 1] : (v < 10 && field.max > 12 ? '0' + v : String(v));
              $('<label class="checkbox-inline"></label>')
                .append($('<input type="checkbox">').val(v), document.createTextNode(' ' + text))
                .appendTo($values);
            }
            break;
        }
      });
      var $custom = $('<div class="radio xj-cron-custom" hidden></div>').appendTo($pane);
      $('<label></label>').append($('<input type="radio">').attr({ name: name, value: 'custom' }),
        document.createTextNode(' ' + w.custom + ': '), $('<code class="xj-cron-raw"></code>')).appendTo($custom);
    });

    var $next = $('<div class="xj-cron-next"></div>');
    var $nextBtn = $('<button type="button" class="btn btn-default btn-sm"></button>').text(XJ.t('jobinfo_opt_next_time'));
    var $nextList = $('<ul class="list-unstyled xj-cron-next-list"></ul>');
    $next.append($nextBtn, $nextList);
    $container.empty().append($tabs, $panes, $next);

    function pane(key) {
      return $panes.find('.xj-cron-pane[data-field=' + key + ']');
    }

    function setField(field, state) {
      var $p = pane(field.key);
      var d = defaults(field);
      $p.find('.xj-cron-custom').prop('hidden', state.mode !== 'custom');
      $p.find('.xj-cron-raw').text(state.raw || '');
      $p.find('input[type=radio][value=' + state.mode + ']').prop('checked', true);
      $p.find('.xj-range-a').val(state.mode === 'range' ? state.a : d.a);
      $p.find('.xj-range-b').val(state.mode === 'range' ? state.b : d.b);
      $p.find('.xj-step-a').val(state.mode === 'step' ? state.a : field.min);
      $p.find('.xj-step-b').val(state.mode === 'step' ? state.b : 1);
      $p.find('.xj-cron-values input').each(function () {
        $(this).prop('checked', state.mode === 'list' && state.values.indexOf(+this.value) >= 0);
      });
    }

    function partOf(field) {
      var $p = pane(field.key);
      var mode = $p.find('input[type=radio]:checked').val();
      switch (mode) {
        case 'every': return '*';
        case 'unspecified': return '?';
        case 'last': return 'L';
        case 'none': return '';
        case 'range': return ($p.find('.xj-range-a').val() || field.min) + '-' + ($p.find('.xj-range-b').val() || field.max);
        case 'step': return ($p.find('.xj-step-a').val() || field.min) + '/' + ($p.find('.xj-step-b').val() || 1);
        case 'list':
          var vals = $p.find('.xj-cron-values input:checked').map(function () { return this.value; }).get();
          return vals.length ? vals.join(',') : '*';
        case 'custom': return $p.find('.xj-cron-raw').text();
      }
      return '*';
    }

    function write() {
      var parts = $.map(FIELDS, function (f) { return partOf(f); });
      if (!parts[6]) {
        parts.pop();
      }
      $input.val(parts.join(' ')).trigger('change');
      $nextList.empty();
    }

    // Quartz needs exactly one of day and week to be "?": choosing a value in
    // one makes the other unspecified.
    function exclusive(changed) {
      var other = changed === 'day' ? 'week' : changed === 'week' ? 'day' : null;
      if (!other) {
        return;
      }
      var mode = pane(changed).find('input[type=radio]:checked').val();
      var $o = pane(other);
      if (mode === 'unspecified') {
        if ($o.find('input[type=radio]:checked').val() === 'unspecified') {
          $o.find('input[type=radio][value=every]').prop('checked', true);
        }
      } else {
        $o.find('input[type=radio][value=unspecified]').prop('checked', true);
      }
    }

    $panes.on('change input', 'input', function () {
      var $p = $(this).closest('.xj-cron-pane');
      var key = $p.attr('data-field');
      if (this.type === 'number') {
        $(this).closest('.radio').find('input[type=radio]').prop('checked', true);
      } else if (this.type === 'checkbox') {
        $p.find('input[type=radio][value=list]').prop('checked', true);
      }
      exclusive(key);
      write();
    });

    $nextBtn.on('click', function () {
      $nextList.empty();
      XJ.post('/jobinfo/nextTriggerTime', { scheduleType: 'CRON', scheduleConf: $input.val() }).done(function (answer) {
        if (!XJ.ok(answer)) {
          $('<li class="text-red"></li>').text((answer && answer.msg) || XJ.t('system_fail')).appendTo($nextList);
          return;
        }
        $.each(answer.content || [], function (_, t) {
          $('<li></li>').text(t).appendTo($nextList);
        });
      }).fail(function (message) {
        $('<li class="text-red"></li>').text(message).appendTo($nextList);
      });
    });

    function sync() {
      var text = $.trim($input.val() || '');
      var parts = text ? text.split(/\s+/) : ['0', '0', '0', '*', '*', '?'];
      $.each(FIELDS, function (i, field) {
        var state = parsePart(parts[i]);
        if (state.mode !== 'custom' && state.mode !== 'none' && field.modes.indexOf(state.mode) < 0) {
          state = { mode: 'custom', raw: parts[i] };
        }
        if (state.mode === 'none' && field.key !== 'year') {
          state = { mode: 'every' };
        }
        if (state.mode === 'custom' && state.raw === undefined) {
          state.raw = parts[i];
        }
        setField(field, state);
      });
      $nextList.empty();
    }

    sync();
    return { sync: sync };
  };
})(window, window.jQuery, window.XJ);
