/*
 * Executor groups (console.md §4, admins only): list over POST
 * /jobgroup/pageList {appname, title, start, length}, add/edit
 * (/jobgroup/save, /jobgroup/update), remove, registered addresses.
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

    // add / edit
    var $modal = $('#xj-group-modal');
    var $form = $modal.find('form');
    var field = function (name) { return $form.find('[name=' + name + ']'); };
    var editing = false;

    function applyAddressType() {
      var manual = $form.find('[name=addressType]:checked').val() === '1';
      field('addressList').prop('readonly', !manual);
      $form.find('.xj-address-required').toggle(manual);
    }
    $form.find('[name=addressType]').on('change', applyAddressType);

    $.validator.addMethod('xjAppname', function (value, element) {
      return this.optional(element) || /^[a-z][a-zA-Z0-9-]*$/.test(value);
    });

    var validator = $form.validate($.extend({}, XJ.validatorDefaults, {
      rules: {
        appname: { required: true, rangelength: [4, 64], xjAppname: true },
        title: { required: true, rangelength: [4, 12] },
        addressList: {
          required: { depends: function () { return $form.find('[name=addressType]:checked').val() === '1'; } }
        }
      },
      messages: {
        appname: {
          required: XJ.t('system_please_input') + 'AppName',
          rangelength: XJ.t('jobgroup_field_appname_length'),
          xjAppname: XJ.t('jobgroup_field_appname_limit')
        },
        title: {
          required: XJ.t('system_please_input') + XJ.t('jobgroup_field_title'),
          rangelength: XJ.t('jobgroup_field_title_length')
        },
        addressList: { required: XJ.t('system_please_input') + XJ.t('jobgroup_field_registryList') }
      },
      errorPlacement: function (error, element) {
        error.appendTo(element.closest('div'));
      },
      submitHandler: function () {
        var data = {
          appname: field('appname').val(),
          title: field('title').val(),
          addressType: $form.find('[name=addressType]:checked').val(),
          addressList: field('addressList').val()
        };
        var path = '/jobgroup/save';
        var okText = XJ.t('system_add_suc');
        var failText = XJ.t('system_add_fail');
        if (editing) {
          data.id = field('id').val();
          path = '/jobgroup/update';
          okText = XJ.t('system_update_suc');
          failText = XJ.t('system_update_fail');
        }
        XJ.post(path, data).done(function (answer) {
          if (XJ.ok(answer)) {
            $modal.modal('hide');
            XJ.toast(okText);
            reload(!editing);
          } else {
            XJ.alert((answer && answer.msg) || failText);
          }
        }).fail(function (message) { XJ.alert(message); });
      }
    }));

    function openForm(row) {
      editing = !!row;
      XJ.resetForm($form, validator);
      $modal.find('.xj-mode-add').toggle(!editing);
      $modal.find('.xj-mode-edit').toggle(editing);
      field('id').val(row ? row.id : '');
      field('appname').val(row ? row.appname : '');
      field('title').val(row ? row.title : '');
      $form.find('[name=addressType][value=' + (row && row.addressType !== 0 ? '1' : '0') + ']').prop('checked', true);
      field('addressList').val(row ? row.addressList || '' : '');
      applyAddressType();
      XJ.showModal($modal);
    }

    $('#xj-add').on('click', function () { openForm(null); });
    $table.on('click', '.xj-edit', function (e) {
      e.preventDefault();
      openForm(rowOf(this));
    });
  });
})(window, window.jQuery, window.XJ);
