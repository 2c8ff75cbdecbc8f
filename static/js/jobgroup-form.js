/*
 * The executor form of both consoles' executor lists (add and edit): the
 * AppName (4..64, a lower-case letter first, then letters, digits and -),
 * the title (4..its maxlength: 12 on 2.x, 64 on 3.x), automatic or manual
 * registration with the address list (required when manual; on 3.x
 * switching to automatic clears it, as its page does). Saves through
 * /jobgroup/save (3.x /jobgroup/insert) and /jobgroup/update.
 *
 * XJ.groupForm({reload(firstPage)}) -> { open(row | null) }
 */
(function (window, $, XJ) {
  'use strict';

  XJ.groupForm = function (opts) {
    var $modal = $('#xj-group-modal');
    var $form = $modal.find('form');
    var field = function (name) { return $form.find('[name=' + name + ']'); };
    var editing = false;

    function applyAddressType() {
      var manual = $form.find('[name=addressType]:checked').val() === '1';
      field('addressList').prop('readonly', !manual);
      $form.find('.xj-address-required').toggle(manual);
    }
    $form.find('[name=addressType]').on('change', function () {
      // 3.x, as its page: automatic registration has no address list
      if (XJ.gen3 && $(this).val() === '0') {
        field('addressList').val('');
      }
      applyAddressType();
    });

    $.validator.addMethod('xjAppname', function (value, element) {
      return this.optional(element) || /^[a-z][a-zA-Z0-9-]*$/.test(value);
    });

    var validator = $form.validate($.extend({}, XJ.validatorDefaults, {
      rules: {
        appname: { required: true, rangelength: [4, 64], xjAppname: true },
        title: { required: true, rangelength: [4, +field('title').attr('maxlength') || 12] },
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
        var path = XJ.gen3 ? '/jobgroup/insert' : '/jobgroup/save';
        var words = XJ.formWords(editing);
        if (editing) {
          data.id = field('id').val();
          path = '/jobgroup/update';
        }
        XJ.post(path, data).done(function (answer) {
          if (XJ.ok(answer)) {
            $modal.modal('hide');
            XJ.toast(words.ok);
            opts.reload(!editing);
          } else {
            XJ.alert((answer && answer.msg) || words.fail);
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

    return { open: openForm };
  };
})(window, window.jQuery, window.XJ);
