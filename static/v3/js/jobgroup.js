/*
 * The 3.4.2 executor list: the list (list.js) posts /jobgroup/pageList
 * {appname, title}; the online addresses open in a dialog; the toolbar
 * adds, edits (jobgroup-form.js) and deletes (ids[]=<id>) the selected
 * executor.
 */
(function (window, $, XJ) {
  'use strict';

  $(function () {
    var list = XJ.list3({
      table: '#xj-group-list',
      path: '/jobgroup/pageList',
      params: function () {
        return { appname: $('#xj-filter-appname').val(), title: $('#xj-filter-title').val() };
      },
      columns: [
        { title: 'AppName', field: 'appname', width: 30, widthUnit: '%', align: 'left' },
        { title: XJ.t('jobgroup_field_title'), field: 'title', width: 30, widthUnit: '%' },
        {
          title: XJ.t('jobgroup_field_addressType'), field: 'addressType', width: 10, widthUnit: '%',
          formatter: function (value) {
            return XJ.esc(XJ.t(value === 0 ? 'jobgroup_field_addressType_0' : 'jobgroup_field_addressType_1'));
          }
        },
        {
          title: 'OnLine' + XJ.t('jobgroup_field_registryList'), field: 'registryList', width: 15, widthUnit: '%',
          formatter: function (value) {
            var n = (value || []).length;
            if (!n) {
              return XJ.esc(XJ.t('system_empty'));
            }
            return '<a href="#" role="button" class="xj-addresses">' + XJ.esc(XJ.t('system_show') + ' ( ' + n + ' )') + '</a>';
          }
        }
      ]
    });

    // the online addresses; the click must not change the selection
    $('#xj-group-list').on('click', '.xj-addresses', function (e) {
      e.preventDefault();
      e.stopPropagation();
      var row = $('#xj-group-list').bootstrapTable('getData')[+$(this).closest('tr').attr('data-index')] || {};
      var $t = $('<table class="table table-bordered xj-address-table"><tbody></tbody></table>');
      $.each(row.registryList || [], function (i, address) {
        $('<tr></tr>').append($('<th class="col-md-3"></th>').text(i + 1),
          $('<td class="col-md-9"></td>').append($('<span class="badge bg-green"></span>').text(address)))
          .appendTo($t.find('tbody'));
      });
      XJ.alert($t, XJ.t('jobinfo_opt_registryinfo'));
    });

    var form = XJ.groupForm({ reload: list.reload });
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
        XJ.result(XJ.post('/jobgroup/delete', { ids: [row.id] }), label + XJ.t('system_success'), label + XJ.t('system_fail'))
          .done(function () { list.reload(false); });
      });
    });
  });
})(window, window.jQuery, window.XJ);
