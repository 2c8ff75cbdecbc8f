/*
 * The 3.4.2 user list: the list (list.js) posts /user/pageList {username,
 * role}; the password is never shown; the toolbar adds, edits
 * (user-form.js) and deletes (ids[]=<id>) the selected user.
 */
(function (window, $, XJ) {
  'use strict';

  $(function () {
    var $role = $('#xj-filter-role');
    var list = XJ.list3({
      table: '#xj-user-list',
      path: '/user/pageList',
      params: function () {
        return { username: $('#xj-filter-username').val(), role: $role.val() };
      },
      columns: [
        { title: XJ.t('user_username'), field: 'username', width: 20, widthUnit: '%', align: 'left' },
        {
          title: XJ.t('user_password'), field: 'password', width: 20, widthUnit: '%',
          formatter: function () { return '******'; }
        },
        {
          title: XJ.t('user_role'), field: 'role', width: 10, widthUnit: '%',
          formatter: function (value) {
            var $o = $role.find('option').filter(function () { return this.value === String(value); });
            return XJ.esc($o.length ? $o.text() : value);
          }
        }
      ]
    });

    var form = XJ.userForm({ reload: list.reload });
    $('#xj-add').on('click', function () { form.open(null); });
    $('#xj-edit').on('click', function () {
      var row = list.one();
      if (row) {
        form.open(row);
      }
    });
    $('#xj-delete').on('click', function () {
      var row = list.one();
      if (!row) {
        return;
      }
      var label = XJ.t('system_opt_del');
      XJ.confirm(XJ.t('system_ok') + label + '?').done(function () {
        XJ.result(XJ.post('/user/delete', { ids: [row.id] }), label + XJ.t('system_success'), label + XJ.t('system_fail'))
          .done(function () { list.reload(false); });
      });
    });
  });
})(window, window.jQuery, window.XJ);
