/*
 * xxl-admin-go console: what every page shares (namespace XJ).
 *
 * - page data: XJ.base (context path), XJ.data (the page model, from the
 *   #page-data JSON island), XJ.t(key) (the i18n bundle, from #i18n);
 * - XJ.post: form-encoded POST as the Java pages send it (XJ.postJSON: a
 *   JSON body); an HTML answer means the session is gone, so it goes to the
 *   login page;
 * - dialogs (Bootstrap modals): XJ.alert, XJ.confirm, XJ.toast;
 * - text helpers: XJ.esc, XJ.text, XJ.triggerMsg and XJ.logContent (the only
 *   HTML the console shows from data, through whitelists), XJ.decodeLog, XJ.time;
 * - the frame: sidebar cookie, logout, change password.
 *
 * User data is always put into the page as text; no function here builds
 * HTML from data strings without escaping them.
 */
(function (window, $) {
  'use strict';

  var document = window.document;
  var body = document.body;

  function island(id) {
    var el = document.getElementById(id);
    if (!el) {
      return null;
    }
    try {
      return JSON.parse(el.textContent || 'null');
    } catch (e) {
      return null;
    }
  }

  var texts = island('i18n') || {};

  var XJ = {
    base: body.getAttribute('data-base') || '',
    lang: body.getAttribute('data-lang') || 'zh_CN',
    page: body.getAttribute('data-page') || '',
    data: island('page-data'),
    texts: texts,
    // the 3.4.2 console (a 3.x database): its login, endpoints and
    // Response envelope ({code, msg, data}) where 2.4.2 has ReturnT
    gen3: body.getAttribute('data-gen') === '3'
  };

  // The endpoints and texts that differ between the two consoles. The
  // job list's export and import are ours; on 3.x they are under a prefix
  // no xxl-job controller has (compat/console/routes34.go).
  XJ.paths = XJ.gen3
    ? {
        login: '/auth/login', logout: '/auth/logout', updatePwd: '/auth/updatePwd',
        jobAdd: '/jobinfo/insert', jobStart: '/jobinfo/start', jobStop: '/jobinfo/stop', jobRemove: '/jobinfo/delete',
        jobExport: '/xxl-admin-go/jobinfo/export', jobImport: '/xxl-admin-go/jobinfo/import'
      }
    : {
        login: '/toLogin', logout: '/logout', updatePwd: '/user/updatePwd',
        jobAdd: '/jobinfo/add', jobStart: '/jobinfo/start', jobStop: '/jobinfo/stop', jobRemove: '/jobinfo/remove',
        jobExport: '/jobinfo/export', jobImport: '/jobinfo/import'
      };

  /**
   * jobRef is the parameter that names one job to start, stop or delete:
   * id=N on 2.x, ids[]=N on 3.x (whose endpoints take a list of one).
   */
  XJ.jobRef = function (id) {
    return XJ.gen3 ? { ids: [id] } : { id: id };
  };
  // Bundle keys whose names differ: 3.4.2 fixed 2.4.2's spellings.
  XJ.keys = XJ.gen3
    ? { invalid: 'system_invalid', lengthLimit: 'system_length_limit' }
    : { invalid: 'system_unvalid', lengthLimit: 'system_lengh_limit' };
  var lengthLimitKey = XJ.keys.lengthLimit;

  /**
   * formWords are the success and failure texts of an add (editing false)
   * or edit form: 2.4.2's bundle has them as keys, 3.4.2's joins the
   * action and the outcome.
   */
  XJ.formWords = function (editing) {
    if (XJ.gen3) {
      var action = XJ.t(editing ? 'system_opt_edit' : 'system_opt_add');
      return { ok: action + XJ.t('system_success'), fail: action + XJ.t('system_fail') };
    }
    return editing
      ? { ok: XJ.t('system_update_suc'), fail: XJ.t('system_update_fail') }
      : { ok: XJ.t('system_add_suc'), fail: XJ.t('system_add_fail') };
  };

  /** t returns the bundle text of key (the key itself when missing). */
  XJ.t = function (key) {
    return Object.prototype.hasOwnProperty.call(texts, key) ? texts[key] : key;
  };

  /** url joins the context path and an absolute console path. */
  XJ.url = function (path) {
    return XJ.base + path;
  };

  // ---------------------------------------------------------------- text

  var escapes = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

  /** esc makes any value safe to put into HTML markup as text. */
  XJ.esc = function (value) {
    if (value === null || value === undefined) {
      return '';
    }
    return String(value).replace(/[&<>"']/g, function (c) { return escapes[c]; });
  };

  /**
   * decodeLog turns the rolling log, which the server HTML-escapes exactly
   * once (& < > " '), back into its original text, to be inserted as text.
   */
  XJ.decodeLog = function (value) {
    var back = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
    return String(value || '').replace(/&(?:amp|lt|gt|quot|#39);/g, function (e) { return back[e]; });
  };

  // The admin's own markup in trigger_msg and handle_msg, and nothing else: <br>, <br/>,
  // <span style="color:#hex;"> (quotes, spaces and the ; optional) and </span>.
  var ALLOWED_TAG = /<br\s*\/?>|<span\s+style\s*=\s*(["'])\s*color\s*:\s*(#[0-9a-fA-F]{3,8})\s*;?\s*\1\s*>|<\/span\s*>/gi;

  var ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

  /** decodeEntities decodes character references in a text run (as HTML would show them). */
  function decodeEntities(text) {
    return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]+);/g, function (all, ref) {
      if (ref.charAt(0) === '#') {
        var code = ref.charAt(1) === 'x' || ref.charAt(1) === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : all;
      }
      return Object.prototype.hasOwnProperty.call(ENTITIES, ref.toLowerCase()) ? ENTITIES[ref.toLowerCase()] : all;
    });
  }

  /**
   * triggerMsg renders a log row's trigger_msg or handle_msg, which hold the
   * admin's own markup (a child job's trigger result is appended to the
   * parent's handle_msg with the same coloured span): <br> and <span style="color:#hex"> become elements, everything
   * else (any other tag or attribute, e.g. markup an executor put into its
   * answer) is shown as the literal text it is. The string is tokenised
   * against that whitelist; no DOM is ever built from it by a parser (even
   * DOMParser's inert documents make Chromium check on* attributes against
   * the CSP).
   */
  XJ.triggerMsg = function (html) {
    return whitelisted(html, ALLOWED_TAG, function (m) {
      var span = document.createElement('span');
      span.style.color = m[2];
      return span;
    });
  };

  // The 3.4.x rolling log's own markup: its admin escapes the executor's
  // log text except the exact tags <br>, <b> and </b> (JobLogController's
  // filter); nothing else becomes an element.
  var LOG_TAG = /<br>|<b>|<\/b>/g;

  /**
   * logContent renders a 3.4.x rolling log chunk: <br> and <b>…</b> as
   * elements, the rest (escaped by the server) decoded back to its text.
   */
  XJ.logContent = function (html) {
    return whitelisted(html, LOG_TAG, function () {
      return document.createElement('b');
    });
  };

  // whitelisted tokenises s against the tag pattern re: <br…> becomes a
  // line break, a closing tag ends the open element, any other match opens
  // the element open(match) builds; the text between is decoded and added
  // as text.
  function whitelisted(html, re, open) {
    var frag = document.createDocumentFragment();
    var stack = [frag];
    var s = html === null || html === undefined ? '' : String(html);
    var last = 0;
    var m;
    function text(t) {
      if (t) {
        stack[stack.length - 1].appendChild(document.createTextNode(decodeEntities(t)));
      }
    }
    re.lastIndex = 0;
    while ((m = re.exec(s)) !== null) {
      text(s.slice(last, m.index));
      last = re.lastIndex;
      var tag = m[0].toLowerCase();
      if (tag.indexOf('<br') === 0) {
        stack[stack.length - 1].appendChild(document.createElement('br'));
      } else if (tag.indexOf('</') === 0) {
        if (stack.length > 1) {
          stack.pop();
        } else {
          text(m[0]);
        }
      } else {
        var el = open(m);
        stack[stack.length - 1].appendChild(el);
        stack.push(el);
      }
    }
    text(s.slice(last));
    return frag;
  }

  /** time shows an ISO-8601 (or epoch) time in local time, yyyy-MM-dd HH:mm:ss. */
  XJ.time = function (value) {
    if (value === null || value === undefined || value === '') {
      return '';
    }
    if (window.moment) {
      var m = window.moment(value);
      return m.isValid() ? m.format('YYYY-MM-DD HH:mm:ss') : String(value);
    }
    var d = new Date(value);
    if (isNaN(d.getTime())) {
      return String(value);
    }
    function p(n) { return (n < 10 ? '0' : '') + n; }
    return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + ' ' +
      p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds());
  };

  // ---------------------------------------------------------------- ajax

  // toLogin goes to the login page; a page inside a tab of the 3.x frame
  // takes the whole window there.
  function toLogin() {
    var w = window;
    try {
      if (window.top && window.top !== window && window.top.location.origin === window.location.origin) {
        w = window.top;
      }
    } catch (e) { /* another origin: stay in this frame */ }
    w.location.href = XJ.url(XJ.paths.login);
  }

  // notLoggedIn tells xxl-sso's answer to a call without a login (3.x).
  function notLoggedIn(answer) {
    return XJ.gen3 && answer && String(answer.code) === '500' && typeof answer.msg === 'string' &&
      answer.msg.indexOf('XxlSsoException: not login') >= 0;
  }

  // send runs an XHR that answers JSON: it resolves with the decoded answer
  // and rejects with a message on network errors; an HTML answer (the
  // session expired and the server redirected to the login page) sends the
  // browser there.
  function send(settings) {
    var d = $.Deferred();
    $.ajax($.extend({
      type: 'POST',
      dataType: 'json',
      headers: { 'X-Requested-With': 'XMLHttpRequest' }
    }, settings)).done(function (answer) {
      if (notLoggedIn(answer)) {
        toLogin();
        return;
      }
      // One name for the payload: ReturnT calls it content, Response data.
      if (answer && typeof answer === 'object' && !('content' in answer) && ('data' in answer)) {
        answer.content = answer.data;
      }
      d.resolve(answer);
    }).fail(function (xhr) {
      var type = (xhr && xhr.getResponseHeader && xhr.getResponseHeader('Content-Type')) || '';
      if (type.indexOf('text/html') >= 0) {
        toLogin();
        return;
      }
      d.reject(XJ.t('system_api_error') + (xhr && xhr.status ? ' (' + xhr.status + ')' : ''));
    });
    return d.promise();
  }

  /**
   * post sends a form-encoded POST (X-Requested-With: XMLHttpRequest, as the
   * Java pages) and resolves with the decoded JSON answer (see send).
   */
  XJ.post = function (path, data) {
    return send({
      url: XJ.url(path),
      data: data || {},
      // named even for an empty body, as the recorded Java calls send it
      contentType: 'application/x-www-form-urlencoded; charset=UTF-8'
    });
  };

  /**
   * postJSON sends a JSON document (a string, as the user gave it) as the
   * body of a POST, for the endpoints that take one (the job import).
   */
  XJ.postJSON = function (path, text) {
    return send({
      url: XJ.url(path),
      data: text,
      processData: false,
      contentType: 'application/json; charset=UTF-8'
    });
  };

  /** ok tells whether a ReturnT answer is a success. */
  XJ.ok = function (answer) {
    return !!answer && String(answer.code) === '200';
  };

  // ---------------------------------------------------------------- dialogs

  /**
   * showModal shows a Bootstrap modal. While another modal is still fading
   * out, it waits for that to end: Bootstrap 3 would otherwise remove the
   * new modal's backdrop with the old one and leave the new modal invisible.
   */
  XJ.showModal = function ($m, keyboard) {
    var opts = { backdrop: 'static', keyboard: !!keyboard, show: true };
    if ($('.modal-backdrop').not('.in').length) {
      $(document).one('hidden.bs.modal', function () { $m.modal(opts); });
      return;
    }
    $m.modal(opts);
  };

  function modal(title, content, buttons, cls) {
    var $m = $('<div class="modal fade xj-dialog" tabindex="-1" role="dialog" aria-hidden="true">' +
      '<div class="modal-dialog"><div class="modal-content">' +
      '<div class="modal-header"><button type="button" class="close" data-dismiss="modal" aria-hidden="true">&times;</button>' +
      '<h4 class="modal-title"></h4></div>' +
      '<div class="modal-body"></div><div class="modal-footer"></div>' +
      '</div></div></div>');
    $m.find('.modal-title').text(title);
    var $body = $m.find('.modal-body');
    if (content && content.nodeType) {
      $body.append(content);
    } else if (content instanceof $) {
      $body.append(content);
    } else {
      $body.append($('<div class="xj-dialog-text"></div>').text(content === null || content === undefined ? '' : String(content)));
    }
    var $footer = $m.find('.modal-footer');
    $.each(buttons, function (_, b) {
      $('<button type="button" class="btn"></button>').addClass(b.cls).text(b.label).on('click', function () {
        $m.data('xj-result', b.value);
        $m.modal('hide');
      }).appendTo($footer);
    });
    $m.addClass(cls || '').appendTo(body);
    return $m;
  }

  /**
   * alert shows a message (text, or a DOM node/jQuery object built by the
   * caller) and resolves when closed; cls styles the dialog.
   */
  XJ.alert = function (content, title, cls) {
    var d = $.Deferred();
    var $m = modal(title || XJ.t('system_tips'), content, [
      { label: XJ.t('system_ok'), cls: 'btn-primary', value: true }
    ], cls);
    $m.on('hidden.bs.modal', function () {
      $m.remove();
      d.resolve();
    });
    XJ.showModal($m, true);
    return d.promise();
  };

  /** confirm asks a question; resolves when confirmed, rejects otherwise. */
  XJ.confirm = function (content, title) {
    var d = $.Deferred();
    var $m = modal(title || XJ.t('system_tips'), content, [
      { label: XJ.t('system_ok'), cls: 'btn-primary xj-confirm-ok', value: true },
      { label: XJ.t('system_cancel'), cls: 'btn-default xj-confirm-cancel', value: false }
    ]);
    $m.on('hidden.bs.modal', function () {
      var yes = $m.data('xj-result') === true;
      $m.remove();
      if (yes) {
        d.resolve();
      } else {
        d.reject();
      }
    });
    XJ.showModal($m, true);
    return d.promise();
  };

  /** toast shows a short message for two seconds. */
  XJ.toast = function (message) {
    var $box = $('.xj-toasts');
    if (!$box.length) {
      $box = $('<div class="xj-toasts" role="status" aria-live="polite"></div>').appendTo(body);
    }
    var $t = $('<div class="xj-toast"></div>').text(message).appendTo($box);
    window.setTimeout(function () {
      $t.fadeOut(300, function () { $t.remove(); });
    }, 2000);
  };

  /**
   * result shows the outcome of an action: a toast on success, the
   * server's message (or fallback) in an alert on failure. Resolves on
   * success only.
   */
  XJ.result = function (promise, success, failure) {
    var d = $.Deferred();
    promise.done(function (answer) {
      if (XJ.ok(answer)) {
        XJ.toast(success);
        d.resolve(answer);
      } else {
        XJ.alert((answer && answer.msg) || failure);
        d.reject();
      }
    }).fail(function (message) {
      XJ.alert(message);
      d.reject();
    });
    return d.promise();
  };

  // ---------------------------------------------------------------- lists

  /** dataTableLanguage is DataTables' language option from the bundle. */
  XJ.dataTableLanguage = function () {
    return {
      sProcessing: XJ.t('dataTable_sProcessing'),
      sLengthMenu: XJ.t('dataTable_sLengthMenu'),
      sZeroRecords: XJ.t('dataTable_sZeroRecords'),
      sInfo: XJ.t('dataTable_sInfo'),
      sInfoEmpty: XJ.t('dataTable_sInfoEmpty'),
      sInfoFiltered: XJ.t('dataTable_sInfoFiltered'),
      sInfoPostFix: '',
      sSearch: XJ.t('dataTable_sSearch'),
      sUrl: '',
      sEmptyTable: XJ.t('dataTable_sEmptyTable'),
      sLoadingRecords: XJ.t('dataTable_sLoadingRecords'),
      sInfoThousands: ',',
      oPaginate: {
        sFirst: XJ.t('dataTable_sFirst'),
        sPrevious: XJ.t('dataTable_sPrevious'),
        sNext: XJ.t('dataTable_sNext'),
        sLast: XJ.t('dataTable_sLast')
      },
      oAria: {
        sSortAscending: XJ.t('dataTable_sSortAscending'),
        sSortDescending: XJ.t('dataTable_sSortDescending')
      }
    };
  };

  /**
   * listSource is a DataTables `ajax` function for a server-side list: it
   * posts params() plus start/length to path and hands the rows on. An error
   * answer ({code:500,msg}) is shown and leaves the list empty.
   */
  XJ.listSource = function (path, params) {
    return function (request, callback, settings) {
      var data = $.extend({}, params(), { start: request.start, length: request.length });
      XJ.post(path, data).done(function (answer) {
        if (answer && $.isArray(answer.data)) {
          callback({
            draw: request.draw,
            recordsTotal: answer.recordsTotal || 0,
            recordsFiltered: answer.recordsFiltered || 0,
            data: answer.data
          });
          XJ.markLowerBound(settings && $(settings.nTableWrapper).find('.dataTables_info'),
            answer.countExact === false, answer.recordsTotal);
          return;
        }
        if (answer && answer.msg) {
          XJ.alert(answer.msg);
        }
        callback({ draw: request.draw, recordsTotal: 0, recordsFiltered: 0, data: [] });
      }).fail(function (message) {
        XJ.alert(message);
        callback({ draw: request.draw, recordsTotal: 0, recordsFiltered: 0, data: [] });
      });
    };
  };

  /**
   * markLowerBound says on a list's info line that its total is a lower
   * bound: the admin stopped counting a large table at the count's time
   * bound ("countExact": false) and shows at least that many rows.
   */
  XJ.markLowerBound = function ($info, lower, total) {
    if (!$info || !$info.length) {
      return;
    }
    $info.find('.xj-lower-bound').remove();
    if (lower) {
      $('<span class="xj-lower-bound"></span>')
        .attr('title', 'more rows than counted: the count stopped at its time bound')
        .text(' (\u2265 ' + total + ')').appendTo($info);
    }
  };

  /** textColumn renders a data field as escaped text. */
  XJ.textColumn = function (field, extra) {
    return $.extend({
      data: field,
      defaultContent: '',
      render: function (value, type) {
        return type === 'display' ? XJ.esc(value) : value;
      }
    }, extra || {});
  };

  /**
   * domColumn fills a cell with nodes built by build(row) (text inserted with
   * jQuery .text()); the cell's HTML render is empty.
   */
  XJ.domColumn = function (build, extra) {
    return $.extend({
      data: null,
      defaultContent: '',
      render: function () { return ''; },
      createdCell: function (td, _, row) {
        $(td).empty().append(build(row));
      }
    }, extra || {});
  };

  /** dropdown builds an "Operate" button group; items: [{label, cls, href}|'divider']. */
  XJ.dropdown = function (items) {
    var $g = $('<div class="btn-group"></div>');
    $('<button type="button" class="btn btn-primary btn-sm"></button>').text(XJ.t('system_opt')).appendTo($g);
    $('<button type="button" class="btn btn-primary btn-sm dropdown-toggle" data-toggle="dropdown" aria-expanded="false">' +
      '<span class="caret"></span></button>').appendTo($g);
    var $ul = $('<ul class="dropdown-menu dropdown-menu-right" role="menu"></ul>').appendTo($g);
    $.each(items, function (_, it) {
      if (it === 'divider') {
        $ul.append('<li class="divider"></li>');
        return;
      }
      var $a = $('<a></a>').text(it.label).addClass(it.cls || '');
      if (it.href) {
        $a.attr('href', it.href);
        if (it.target) {
          $a.attr({ target: it.target, rel: 'noopener' });
        }
      } else {
        $a.attr({ href: '#', role: 'button' });
      }
      $('<li></li>').append($a).appendTo($ul);
    });
    // the first button opens the menu too
    $g.children().first().on('click', function (e) {
      e.stopPropagation();
      $g.find('.dropdown-toggle').dropdown('toggle');
    });
    return $g;
  };

  /** select fills a <select> with options [{value, text}] (text as text). */
  XJ.fillSelect = function ($select, options, selected) {
    $select.empty();
    $.each(options, function (_, o) {
      $('<option></option>').val(String(o.value)).text(o.text).appendTo($select);
    });
    if (selected !== undefined && selected !== null) {
      $select.val(String(selected));
    }
  };

  function fieldBox(element) {
    return $(element).closest('div[class*="col-"], .form-group');
  }

  /** validatorDefaults are the jquery-validation settings of every form. */
  XJ.validatorDefaults = {
    errorElement: 'span',
    errorClass: 'help-block',
    focusInvalid: true,
    escapeHtml: true,
    // the mark goes on the field's own column: two fields may share a row
    highlight: function (element) {
      fieldBox(element).addClass('has-error');
    },
    unhighlight: function (element) {
      fieldBox(element).removeClass('has-error');
    },
    success: function (label) {
      label.remove();
    },
    errorPlacement: function (error, element) {
      var $group = element.closest('.input-group');
      error.insertAfter($group.length ? $group : element);
    }
  };

  /** resetForm clears a form, its validator and its error marks. */
  XJ.resetForm = function ($form, validator) {
    $form[0].reset();
    if (validator) {
      validator.resetForm();
    }
    $form.find('.has-error').removeClass('has-error');
    $form.find('span.help-block').remove();
  };

  // ---------------------------------------------------------------- date ranges

  /**
   * dateRangeOptions are the daterangepicker settings (time with seconds,
   * yyyy-MM-dd HH:mm:ss, the bundle's range names) around start..end.
   */
  XJ.dateRangeOptions = function (start, end) {
    var m = window.moment;
    var ranges = {};
    // the ranges the bundle names (3.4.2's has no "recent hour")
    function range(key, from, to) {
      if (Object.prototype.hasOwnProperty.call(texts, key)) {
        ranges[texts[key]] = [from, to];
      }
    }
    range('daterangepicker_ranges_recent_hour', m().subtract(1, 'hours'), m());
    range('daterangepicker_ranges_today', m().startOf('day'), m().endOf('day'));
    range('daterangepicker_ranges_yesterday', m().subtract(1, 'days').startOf('day'), m().subtract(1, 'days').endOf('day'));
    range('daterangepicker_ranges_this_month', m().startOf('month'), m().endOf('month'));
    range('daterangepicker_ranges_last_month', m().subtract(1, 'months').startOf('month'), m().subtract(1, 'months').endOf('month'));
    range('daterangepicker_ranges_recent_week', m().subtract(1, 'weeks').startOf('day'), m().endOf('day'));
    range('daterangepicker_ranges_recent_month', m().subtract(1, 'months').startOf('day'), m().endOf('day'));
    return {
      startDate: start,
      endDate: end,
      ranges: ranges,
      timePicker: true,
      timePicker24Hour: true,
      timePickerSeconds: true,
      opens: 'left',
      alwaysShowCalendars: false,
      showCustomRangeLabel: true,
      locale: {
        format: 'YYYY-MM-DD HH:mm:ss',
        separator: ' - ',
        applyLabel: XJ.t('system_ok'),
        cancelLabel: XJ.t('system_cancel'),
        fromLabel: XJ.t('daterangepicker_custom_starttime'),
        toLabel: XJ.t('daterangepicker_custom_endtime'),
        customRangeLabel: XJ.t('daterangepicker_custom_name'),
        daysOfWeek: XJ.t('daterangepicker_custom_daysofweek').split(','),
        monthNames: XJ.t('daterangepicker_custom_monthnames').split(','),
        firstDay: 1
      }
    };
  };

  // ---------------------------------------------------------------- frame

  function frame() {
    // a 3.x page shown in a tab of the frame (the error page hides its way back)
    if (XJ.gen3 && window.parent !== window) {
      $(body).addClass('xj-in-tab');
    }

    // The sidebar state survives reloads: the server reads this cookie and
    // renders the page collapsed (off) or expanded (on).
    // (The 3.x frame keeps it in localStorage instead: v3/js/frame.js.)
    $(document).on('collapsed.pushMenu expanded.pushMenu', function (e) {
      if (XJ.gen3) {
        return;
      }
      var state = e.type === 'collapsed' ? 'off' : 'on';
      document.cookie = 'xxljob_adminlte_settings=' + state + '; path=/; max-age=31536000; SameSite=Lax';
    });

    $(document).on('click', '.xj-logout', function (e) {
      e.preventDefault();
      XJ.confirm(XJ.t('logout_confirm')).done(function () {
        XJ.post(XJ.paths.logout).done(function (answer) {
          if (XJ.ok(answer)) {
            toLogin();
          } else {
            XJ.alert((answer && answer.msg) || XJ.t('logout_fail'));
          }
        }).fail(function (message) { XJ.alert(message); });
      });
    });

    var $pm = $('#xj-password-modal');
    if (!$pm.length) {
      return;
    }
    var $form = $pm.find('form');
    var validator = $form.validate($.extend({}, XJ.validatorDefaults, {
      rules: {
        oldPassword: { required: true, rangelength: [4, 20] },
        password: { required: true, rangelength: [4, 20] }
      },
      messages: {
        oldPassword: {
          required: XJ.t('system_please_input') + XJ.t('change_pwd_field_oldpwd'),
          rangelength: XJ.t(lengthLimitKey) + '[4-20]'
        },
        password: {
          required: XJ.t('system_please_input') + XJ.t('change_pwd_field_newpwd'),
          rangelength: XJ.t(lengthLimitKey) + '[4-20]'
        }
      },
      submitHandler: function () {
        XJ.post(XJ.paths.updatePwd, {
          password: $form.find('[name=password]').val(),
          oldPassword: $form.find('[name=oldPassword]').val()
        }).done(function (answer) {
          if (!XJ.ok(answer)) {
            XJ.alert((answer && answer.msg) || XJ.t('system_update_fail'));
            return;
          }
          $pm.modal('hide');
          XJ.alert(XJ.t('change_pwd_suc_to_logout')).done(function () {
            XJ.post(XJ.paths.logout).always(toLogin);
          });
        }).fail(function (message) { XJ.alert(message); });
      }
    }));
    $(document).on('click', '.xj-change-pwd', function (e) {
      e.preventDefault();
      XJ.showModal($pm);
    });
    $pm.on('hidden.bs.modal', function () {
      XJ.resetForm($form, validator);
    });
  }

  window.XJ = XJ;
  $(frame);
})(window, window.jQuery);
