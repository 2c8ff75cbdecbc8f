/*
 * Executor groups (console.md §4, admins only): list over POST
 * /jobgroup/pageList {appname, title, start, length}, add/edit
 * (/jobgroup/save, /jobgroup/update: jobgroup-form.js), remove, registered
 * addresses.
 */
(function (window, $, XJ) {
  'use strict';

  $(function () {
    var $table = $('#xj-group-list');
    var table = $table.DataTable({
      processing: true,
      serverSide: true,
      searching: false,
      ordering: false,
      deferRender: true,
      autoWidth: false,
      language: XJ.dataTableLanguage(),
      ajax: XJ.listSource('/jobgroup/pageList', function () {
        return { appname: $('#xj-filter-appname').val(), title: $('#xj-filter-title').val() };
      }),
      columns: [
        XJ.textColumn('appname', { width: '30%' }),
        XJ.textColumn('title', { width: '25%' }),
        XJ.domColumn(function (row) {
          return document.createTextNode(XJ.t(row.addressType === 0 ? 'jobgroup_field_addressType_0' : 'jobgroup_field_addressType_1'));
        }, { width: '15%' }),
        XJ.domColumn(function (row) {
          var n = (row.registryList || []).length;
          if (!n) {
            return document.createTextNode(XJ.t('system_empty'));
          }
          return $('<a href="#" role="button" class="xj-addresses"></a>').text(XJ.t('system_show') + ' ( ' + n + ' )');
        }, { width: '15%' }),
        XJ.domColumn(function () {
          return XJ.dropdown([
            { label: XJ.t('system_opt_edit'), cls: 'xj-edit' },
            { label: XJ.t('system_opt_del'), cls: 'xj-delete' }
          ]);
        }, { width: '15%' })
      ]
    });

    function rowOf(el) {
      return table.row($(el).closest('tr')).data();
    }

    function reload(resetPaging) {
      table.ajax.reload(null, resetPaging !== false);
    }

    $('#xj-search').on('click', function () { reload(true); });
    $('.xj-filters input').on('keydown', function (e) {
      if (e.key === 'Enter') {
        reload(true);
      }
    });

    $table.on('click', '.xj-addresses', function (e) {
      e.preventDefault();
      var $ol = $('<ol class="xj-address-list"></ol>');
      $.each(rowOf(this).registryList || [], function (_, address) {
        $('<li></li>').append($('<span class="badge bg-green"></span>').text(address)).appendTo($ol);
      });
      XJ.alert($ol, XJ.t('jobinfo_opt_registryinfo'));
    });

    $table.on('click', '.xj-delete', function (e) {
      e.preventDefault();
      var row = rowOf(this);
      XJ.confirm(XJ.t('system_ok') + XJ.t('jobgroup_del') + '?').done(function () {
        XJ.result(XJ.post('/jobgroup/remove', { id: row.id }),
          XJ.t('system_opt_del') + XJ.t('system_success'), XJ.t('system_opt_del') + XJ.t('system_fail'))
          .done(function () { reload(false); });
      });
    });

    // add / edit (jobgroup-form.js)
    var form = XJ.groupForm({ reload: reload });
    $('#xj-add').on('click', function () { form.open(null); });
    $table.on('click', '.xj-edit', function (e) {
      e.preventDefault();
      form.open(rowOf(this));
    });
  });
})(window, window.jQuery, window.XJ);
