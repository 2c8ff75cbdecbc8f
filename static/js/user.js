/*
 * Users (console.md §7, admins only): list over POST /user/pageList
 * {username, role, start, length}, add/edit (/user/add, /user/update; a
 * blank password on edit keeps it: user-form.js), remove. Permission = the checked group
 * ids joined with ",".
 */
(function (window, $, XJ) {
  'use strict';

  var model = XJ.data || {};

  function groupTitles(permission) {
    var byID = {};
    $.each(model.groups || [], function (_, g) { byID[String(g.id)] = g.title; });
    var out = [];
    $.each(String(permission || '').split(','), function (_, id) {
      if (id) {
        out.push(Object.prototype.hasOwnProperty.call(byID, id) ? byID[id] : id);
      }
    });
    return out.join(', ');
  }

  $(function () {
    var $table = $('#xj-user-list');
    var table = $table.DataTable({
      processing: true,
      serverSide: true,
      searching: false,
      ordering: false,
      deferRender: true,
      autoWidth: false,
      language: XJ.dataTableLanguage(),
      ajax: XJ.listSource('/user/pageList', function () {
        return { username: $('#xj-filter-username').val(), role: $('#xj-filter-role').val() };
      }),
      columns: [
        XJ.textColumn('username', { width: '30%' }),
        XJ.domColumn(function (row) {
          return document.createTextNode(XJ.t(row.role === 1 ? 'user_role_admin' : 'user_role_normal'));
        }, { width: '20%' }),
        XJ.domColumn(function (row) {
          return document.createTextNode(row.role === 1 ? '' : groupTitles(row.permission));
        }, { width: '30%' }),
        XJ.domColumn(function () {
          return $('<span></span>').append(
            $('<button type="button" class="btn btn-warning btn-xs xj-edit"></button>').text(XJ.t('system_opt_edit')),
            document.createTextNode(' '),
            $('<button type="button" class="btn btn-danger btn-xs xj-delete"></button>').text(XJ.t('system_opt_del')));
        }, { width: '20%' })
      ]
    });

    function rowOf(el) {
      return table.row($(el).closest('tr')).data();
    }

    function reload(resetPaging) {
      table.ajax.reload(null, resetPaging !== false);
    }

    $('#xj-search').on('click', function () { reload(true); });
    $('#xj-filter-role').on('change', function () { reload(true); });
    $('.xj-filters input').on('keydown', function (e) {
      if (e.key === 'Enter') {
        reload(true);
      }
    });

    $table.on('click', '.xj-delete', function () {
      var row = rowOf(this);
      XJ.confirm(XJ.t('system_ok') + XJ.t('system_opt_del') + '?').done(function () {
        XJ.result(XJ.post('/user/remove', { id: row.id }),
          XJ.t('system_opt_del') + XJ.t('system_success'), XJ.t('system_opt_del') + XJ.t('system_fail'))
          .done(function () { reload(false); });
      });
    });

    // add / edit (user-form.js)
    var form = XJ.userForm({ reload: reload });
    $('#xj-add').on('click', function () { form.open(null); });
    $table.on('click', '.xj-edit', function () { form.open(rowOf(this)); });
  });
})(window, window.jQuery, window.XJ);
