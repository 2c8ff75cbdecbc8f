/*
 * The lists of the 3.4.2 console (jobs, logs, executors, users): a
 * bootstrap-table over a server-side list, the filter box above it and the
 * toolbar whose buttons act on the selected rows, as the 3.4.2 pages have
 * them.
 *
 * - The list posts the filter's params() plus offset and pagesize to path
 *   (XJ.post: form-encoded, X-Requested-With) and shows the Response's
 *   data.data rows of data.total; a refusal is shown and leaves it empty.
 * - A click on a row selects that row alone (ctrl/shift add to it, the
 *   check boxes too); toolbar buttons marked .xj-one are enabled with
 *   exactly one selected row, .xj-any with at least one. A disabled button
 *   still answers a click with "choose one row", as on the 3.4.2 pages.
 * - #xj-search reloads from the first page (Enter in a filter field too),
 *   #xj-reset restores the filters (reset(), else empty fields and first
 *   options) and reloads.
 * - Cells show data as text: every formatter returns escaped markup.
 *
 * XJ.list3({table, path, params(), columns, reset()}) ->
 *   {selected(), one(), reload(firstPage), watch(onChange), $table}
 * XJ.openInTab(path, name): a page in a new tab of the frame (a window
 * when the page is not in the frame).
 */
(function (window, $, XJ) {
  'use strict';

  var LOCALES = { en: 'en-US', zh_CN: 'zh-CN', zh_TC: 'zh-TW' };

  XJ.openInTab = function (path, name) {
    var parent = null;
    try {
      if (window.parent !== window && window.parent.XJ && window.parent.XJ.openTab) {
        parent = window.parent.XJ;
      }
    } catch (e) { /* another origin */ }
    if (parent) {
      parent.openTab(path, name);
      return;
    }
    window.open(XJ.url(path), '_blank', 'noopener');
  };

  /** mustChooseOne tells the user to select exactly one row. */
  XJ.mustChooseOne = function () {
    XJ.toast(XJ.t('system_please_choose') + XJ.t('system_one') + XJ.t('system_data'));
  };

  XJ.list3 = function (opts) {
    var $table = $(opts.table);
    var listeners = [];

    function selected() {
      return $table.bootstrapTable('getSelections');
    }

    function changed() {
      var n = selected().length;
      $('.xj-toolbar .xj-one').toggleClass('disabled', n !== 1);
      $('.xj-toolbar .xj-any').toggleClass('disabled', n === 0);
      $.each(listeners, function (_, f) { f(n); });
    }

    // data-xj-loads counts the answers shown (a signal for the page tests)
    var loads = 0;
    function show(req, page) {
      req.success(page);
      $table.attr('data-xj-loads', String(++loads));
    }

    function empty(req) {
      show(req, { total: 0, rows: [] });
    }

    $table.bootstrapTable({
      locale: LOCALES[XJ.lang] || 'en-US',
      ajax: function (req) {
        var data = $.extend({}, opts.params(), { offset: req.data.offset, pagesize: req.data.limit });
        XJ.post(opts.path, data).done(function (answer) {
          if (!XJ.ok(answer) || !answer.content) {
            XJ.toast((answer && answer.msg) || XJ.t('system_opt') + XJ.t('system_fail'));
            empty(req);
            return;
          }
          show(req, { total: answer.content.total || 0, rows: answer.content.data || [] });
          // "countExact": false: the total is a lower bound (the admin
          // stopped counting a large table at the count's time bound).
          var $info = $table.closest('.bootstrap-table').find('.pagination-info');
          $info.find('.xj-lower-bound').remove();
          if (answer.content.countExact === false) {
            $('<span class="xj-lower-bound"></span>')
              .attr('title', 'more rows than counted: the count stopped at its time bound')
              .text(' (\u2265 ' + answer.content.total + ')').appendTo($info);
          }
        }).fail(function (message) {
          XJ.alert(message);
          empty(req);
        });
      },
      sidePagination: 'server',
      queryParamsType: 'limit',
      pagination: true,
      pageNumber: 1,
      pageSize: 10,
      pageList: [10, 25, 50, 100],
      smartDisplay: false,
      paginationParts: ['pageInfoShort', 'pageSize', 'pageList'],
      paginationPreText: '<<',
      paginationNextText: '>>',
      paginationLoop: false,
      clickToSelect: true,
      multipleSelectRow: true,
      sortable: false,
      showRefresh: true,
      showColumns: true,
      minimumCountColumns: 2,
      // values reach the formatters as they are; every column escapes
      // its own (a plain column through textCell)
      escape: false,
      escapeTitle: true,
      columns: [{ checkbox: true, field: 'xjSelected', width: 5, widthUnit: '%', align: 'center', valign: 'middle' }]
        .concat($.map(opts.columns, function (c) {
          return $.extend({ formatter: XJ.textCell }, c);
        })),
      onCheck: changed,
      onUncheck: changed,
      onCheckAll: changed,
      onUncheckAll: changed,
      onCheckSome: changed,
      onUncheckSome: changed,
      onPostBody: changed
    });

    function reload(firstPage) {
      $table.bootstrapTable('refresh', firstPage ? { pageNumber: 1 } : undefined);
    }

    $('#xj-search').on('click', function () { reload(true); });
    $('.xj-filters input[type=text]').on('keydown', function (e) {
      if (e.key === 'Enter') {
        reload(true);
      }
    });
    $('#xj-reset').on('click', function () {
      if (opts.reset) {
        opts.reset();
      } else {
        $('.xj-filters input[type=text]').val('');
        $('.xj-filters select').each(function () { $(this).prop('selectedIndex', 0).trigger('change.select2'); });
      }
      reload(true);
    });

    return {
      $table: $table,
      selected: selected,
      // one is the selected row when exactly one is selected, else null
      // after telling the user to choose one
      one: function () {
        var rows = selected();
        if (rows.length !== 1) {
          XJ.mustChooseOne();
          return null;
        }
        return rows[0];
      },
      reload: reload,
      watch: function (f) { listeners.push(f); }
    };
  };

  /** textCell is a formatter showing a value as text. */
  XJ.textCell = function (value) {
    return XJ.esc(value);
  };

  /** labelCell is a formatter for a Bootstrap label with text. */
  XJ.labelCell = function (cls, text) {
    return '<small class="label ' + cls + '">' + XJ.esc(text) + '</small>';
  };
})(window, window.jQuery, window.XJ);
